import type { DiscountRule, FieldViolation, RuleName } from '@cartwheel/sdk';
import { type Kysely, sql } from 'kysely';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { isCountryCode, subdivisionCode } from '../pricing/countries.ts';
import { decimal } from '../pricing/money.ts';
import { movePricingVersion, settingsVersion } from '../pricing/versions.ts';
import { applicationError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import {
  type CheckoutSettings,
  type CommerceSettings,
  type Coupon,
  DEFAULT_STORE_SETTINGS,
  type PickupLocation,
  type ShippingRegion,
  type StoreCommerceSettings,
  type TaxRegion,
  windowStatus,
} from './model.ts';

type Document = { id: string; createdDate: string; updatedDate: string };
/** What a caller gives to create a setting: everything but its id and dates. */
export type Draft<T extends Document> = Omit<T, 'id' | 'createdDate' | 'updatedDate'>;

export type TaxRegionDraft = Draft<TaxRegion>;
export type ShippingRegionDraft = Draft<ShippingRegion>;
export type PickupLocationDraft = Draft<PickupLocation>;
export type CouponDraft = Draft<Coupon>;

/** The settings documents kept one per row, with what each table adds beside the document. */
type DocumentTable = 'tax_regions' | 'shipping_regions' | 'pickup_locations' | 'discount_rules' | 'coupons';

/** A snapshot of the settings, the pricing version it is at least as new as, and when its time is up. */
interface SettingsSnapshot {
  settings: CommerceSettings;
  version: number;
  until: number;
}

/** A discount rule as the wire shows it: its status follows from its window and the clock. */
export function withStatus(rule: DiscountRule, now = new Date()): DiscountRule {
  return { ...rule, status: windowStatus(rule.activeTimeInfo?.start, rule.activeTimeInfo?.end, now) };
}

/**
 * The store's commerce settings: currency and tax mode, tax regions, shipping regions and their
 * options, pickup locations, discount rules, coupons and the checkout's brand. Pricing reads them as
 * one snapshot (`commerceSettings`), kept for `cacheMs` and dropped on every write here; a caller that
 * read the settings' pricing version asks for a snapshot at least that new, which is exact.
 */
export class StoreSettingsService {
  private cached: SettingsSnapshot | null = null;
  private loading: Promise<SettingsSnapshot> | null = null;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly options: { dialect: DialectName; cacheMs?: number },
  ) {}

  // ---- what pricing reads ----

  /**
   * Every setting pricing needs, in six small queries at most once per `cacheMs`; with `atLeastVersion`
   * (the settings' pricing version the caller read), a snapshot no older than that version instead.
   */
  async commerceSettings(executor?: Kysely<Tables>, atLeastVersion?: number): Promise<CommerceSettings> {
    const fresh = (snapshot: SettingsSnapshot) =>
      atLeastVersion === undefined ? snapshot.until > Date.now() : snapshot.version >= atLeastVersion;
    if (this.cached && fresh(this.cached)) return this.cached.settings;
    // inside a caller's transaction the read goes through it: SQLite's one connection is held by it
    if (executor && executor !== this.db) return (await this.load(executor)).settings;
    const shared = await this.sharedLoad();
    if (fresh(shared)) return shared.settings;
    // the shared load began before the caller's version moved: read again, after it
    const own = await this.load();
    if (!this.cached || this.cached.version <= own.version) this.cached = own;
    return own.settings;
  }

  /**
   * The settings as the database holds them now, whatever snapshot this process keeps: for a refusal
   * another process's write may have lifted a moment ago (a coupon just made).
   */
  async currentCommerceSettings(): Promise<CommerceSettings> {
    return this.commerceSettings(undefined, await settingsVersion(this.db));
  }

  /** One load at a time for every caller of this process; a write meanwhile keeps it out of the cache. */
  private sharedLoad(): Promise<SettingsSnapshot> {
    if (!this.loading) {
      const loading = this.load().then(
        (snapshot) => {
          if (this.loading === loading) {
            this.cached = snapshot;
            this.loading = null;
          }
          return snapshot;
        },
        (error) => {
          if (this.loading === loading) this.loading = null;
          throw error;
        },
      );
      this.loading = loading;
    }
    return this.loading;
  }

  /** The version first, then the documents: what is read is at least as new as the version says. */
  private async load(executor: Kysely<Tables> = this.db): Promise<SettingsSnapshot> {
    const version = await settingsVersion(executor);
    const [store, taxRegions, shippingRegions, pickupLocations, discountRules, coupons] = await Promise.all([
      this.storeSettings(executor),
      this.list<TaxRegion>('tax_regions', executor),
      this.list<ShippingRegion>('shipping_regions', executor),
      this.list<PickupLocation>('pickup_locations', executor),
      this.list<DiscountRule & Document>('discount_rules', executor),
      this.list<Coupon>('coupons', executor),
    ]);
    const settings: CommerceSettings = {
      store,
      taxRegions,
      shippingRegions,
      pickupLocations,
      discountRules,
      coupons: new Map(coupons.map((coupon) => [coupon.code.toUpperCase(), coupon])),
    };
    return { settings, version, until: Date.now() + (this.options.cacheMs ?? 1000) };
  }

  /** Whether the merchant has set nothing yet: no currency or tax mode, regions, pickup, rules or coupons. */
  async isUnset(): Promise<boolean> {
    const tables = [
      'store_settings',
      'tax_regions',
      'shipping_regions',
      'pickup_locations',
      'discount_rules',
      'coupons',
    ] as const;
    for (const table of tables) {
      if (await this.db.selectFrom(table).select(sql`1`.as('one')).limit(1).executeTakeFirst()) return false;
    }
    return true;
  }

  /** Each write drops the snapshot, and any load that started before it. */
  private changed(): void {
    this.cached = null;
    this.loading = null;
  }

  // ---- the store's own settings ----

  async storeSettings(executor: Kysely<Tables> = this.db): Promise<StoreCommerceSettings> {
    const row = await executor
      .selectFrom('store_settings')
      .select('doc')
      .where('key', '=', 'store')
      .executeTakeFirst();
    return row
      ? { ...DEFAULT_STORE_SETTINGS, ...(JSON.parse(row.doc) as Partial<StoreCommerceSettings>) }
      : DEFAULT_STORE_SETTINGS;
  }

  async updateStoreSettings(
    patch: Partial<Omit<StoreCommerceSettings, 'checkoutSettings'>>,
  ): Promise<StoreCommerceSettings> {
    if (patch.currency !== undefined && !isCurrencyCode(patch.currency)) {
      throw invalidArgument([
        violation('storeSettings.currency', 'must be an ISO 4217 currency code', 'FORMAT'),
      ]);
    }
    return this.changeStore((current) => ({ ...current, ...definedOnly(patch) }));
  }

  async checkoutSettings(): Promise<CheckoutSettings> {
    return (await this.storeSettings()).checkoutSettings;
  }

  /** Merges what the patch names into the checkout brand; `logo: null` removes the logo. */
  async updateCheckoutSettings(patch: {
    checkoutBrand?: {
      header?: { logo?: Partial<NonNullable<CheckoutSettings['checkoutBrand']['header']['logo']>> | null };
    };
  }): Promise<CheckoutSettings> {
    const store = await this.changeStore((current) => {
      const logoPatch = patch.checkoutBrand?.header?.logo;
      const logo = current.checkoutSettings.checkoutBrand.header.logo;
      const next =
        logoPatch === undefined
          ? logo
          : logoPatch === null
            ? null
            : {
                size: 'MEDIUM' as const,
                alignment: 'CENTER' as const,
                ...(logo ?? {}),
                ...definedOnly(logoPatch),
              };
      return { ...current, checkoutSettings: { checkoutBrand: { header: { logo: next } } } };
    });
    return store.checkoutSettings;
  }

  private async changeStore(
    change: (current: StoreCommerceSettings) => StoreCommerceSettings,
  ): Promise<StoreCommerceSettings> {
    try {
      return await inTransaction(this.db, async (trx) => {
        const row = await trx
          .selectFrom('store_settings')
          .select('doc')
          .where('key', '=', 'store')
          .$if(this.options.dialect === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst();
        const current = row
          ? { ...DEFAULT_STORE_SETTINGS, ...(JSON.parse(row.doc) as Partial<StoreCommerceSettings>) }
          : DEFAULT_STORE_SETTINGS;
        const next = change(current);
        const doc = JSON.stringify(next);
        const updated_date = new Date().toISOString();
        await trx
          .insertInto('store_settings')
          .values({ key: 'store', doc, updated_date })
          .onConflict((oc) => oc.column('key').doUpdateSet({ doc, updated_date }))
          .execute();
        await movePricingVersion(trx, 'store-settings');
        return next;
      });
    } finally {
      this.changed();
    }
  }

  // ---- tax regions ----

  listTaxRegions(): Promise<TaxRegion[]> {
    return this.list<TaxRegion>('tax_regions');
  }

  async createTaxRegion(draft: TaxRegionDraft): Promise<TaxRegion> {
    const region = checkTaxRegion(draft, 'taxRegion');
    return this.create(
      'tax_regions',
      region,
      { region_key: region.subdivision ?? region.country },
      'tax region',
    );
  }

  async updateTaxRegion(id: string, patch: Partial<TaxRegionDraft>): Promise<TaxRegion> {
    return this.update<TaxRegion>('tax_regions', id, 'tax region', (current) => {
      const region = checkTaxRegion({ ...current, ...definedOnly(patch) }, 'taxRegion');
      return {
        doc: { ...current, ...region },
        columns: { region_key: region.subdivision ?? region.country },
      };
    });
  }

  deleteTaxRegion(id: string): Promise<void> {
    return this.remove('tax_regions', id, 'tax region');
  }

  // ---- shipping regions ----

  listShippingRegions(): Promise<ShippingRegion[]> {
    return this.list<ShippingRegion>('shipping_regions');
  }

  createShippingRegion(draft: ShippingRegionDraft): Promise<ShippingRegion> {
    return this.create(
      'shipping_regions',
      checkShippingRegion(draft, 'shippingRegion'),
      {},
      'shipping region',
    );
  }

  updateShippingRegion(id: string, patch: Partial<ShippingRegionDraft>): Promise<ShippingRegion> {
    return this.update<ShippingRegion>('shipping_regions', id, 'shipping region', (current) => ({
      doc: { ...current, ...checkShippingRegion({ ...current, ...definedOnly(patch) }, 'shippingRegion') },
      columns: {},
    }));
  }

  deleteShippingRegion(id: string): Promise<void> {
    return this.remove('shipping_regions', id, 'shipping region');
  }

  // ---- pickup locations ----

  listPickupLocations(): Promise<PickupLocation[]> {
    return this.list<PickupLocation>('pickup_locations');
  }

  createPickupLocation(draft: PickupLocationDraft): Promise<PickupLocation> {
    const location = checkPickupLocation(draft, 'pickupLocation');
    return this.create('pickup_locations', location, { code: location.code }, 'pickup location');
  }

  updatePickupLocation(id: string, patch: Partial<PickupLocationDraft>): Promise<PickupLocation> {
    return this.update<PickupLocation>('pickup_locations', id, 'pickup location', (current) => {
      const location = checkPickupLocation({ ...current, ...definedOnly(patch) }, 'pickupLocation');
      return { doc: { ...current, ...location }, columns: { code: location.code } };
    });
  }

  deletePickupLocation(id: string): Promise<void> {
    return this.remove('pickup_locations', id, 'pickup location');
  }

  // ---- coupons ----

  listCoupons(): Promise<Coupon[]> {
    return this.list<Coupon>('coupons');
  }

  createCoupon(draft: CouponDraft): Promise<Coupon> {
    const coupon = checkCoupon(draft, 'coupon');
    return this.create('coupons', coupon, { code_key: coupon.code.toUpperCase() }, 'coupon');
  }

  updateCoupon(id: string, patch: Partial<CouponDraft>): Promise<Coupon> {
    return this.update<Coupon>('coupons', id, 'coupon', (current) => {
      const coupon = checkCoupon({ ...current, ...definedOnly(patch) }, 'coupon');
      return { doc: { ...current, ...coupon }, columns: { code_key: coupon.code.toUpperCase() } };
    });
  }

  deleteCoupon(id: string): Promise<void> {
    return this.remove('coupons', id, 'coupon');
  }

  // ---- discount rules (the hosted paths and shapes) ----

  async createDiscountRule(input: DiscountRule): Promise<DiscountRule> {
    const rule = checkDiscountRule(input, 'discountRule');
    const created = await this.create<DiscountRule & Document>(
      'discount_rules',
      { ...rule, revision: '1', usageCount: 0 } as DiscountRule & Draft<Document>,
      { revision: 1 },
      'discount rule',
    );
    return withStatus(created);
  }

  async discountRule(id: string): Promise<DiscountRule> {
    const row = await this.db
      .selectFrom('discount_rules')
      .select('doc')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('discount rule', id);
    return withStatus(JSON.parse(row.doc) as DiscountRule);
  }

  /** Oldest first; `cursorPaging.cursor` is the offset as text. */
  async queryDiscountRules(
    limit = 50,
    cursor?: string | null,
  ): Promise<{
    discountRules: DiscountRule[];
    pagingMetadata: { count: number; cursors: { next?: string | null }; hasNext: boolean };
  }> {
    const offset = cursor ? Number.parseInt(cursor, 10) || 0 : 0;
    const rows = await this.db
      .selectFrom('discount_rules')
      .select('doc')
      .orderBy('created_date')
      .orderBy('id')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    const now = new Date();
    const page = rows.slice(0, limit).map((row) => withStatus(JSON.parse(row.doc) as DiscountRule, now));
    const hasNext = rows.length > limit;
    return {
      discountRules: page,
      pagingMetadata: {
        count: page.length,
        cursors: { next: hasNext ? String(offset + limit) : null },
        hasNext,
      },
    };
  }

  /** Changes what the patch names; a `revision` given must be the current one (a lost update is refused). */
  async updateDiscountRule(id: string, patch: DiscountRule): Promise<DiscountRule> {
    const updated = await this.update<DiscountRule & Document>(
      'discount_rules',
      id,
      'discount rule',
      (current) => {
        if (patch.revision != null && String(patch.revision) !== String(current.revision)) {
          throw applicationError(
            'FAILED_PRECONDITION',
            'REVISION_MISMATCH',
            `discount rule ${id} has changed since revision ${patch.revision}`,
            {
              currentRevision: current.revision,
            },
          );
        }
        const {
          id: _id,
          revision: _revision,
          createdDate: _created,
          updatedDate: _updated,
          status: _status,
          ...changes
        } = patch;
        const rule = checkDiscountRule({ ...current, ...definedOnly(changes) }, 'discountRule');
        const revision = Number(current.revision ?? 1) + 1;
        return {
          doc: { ...current, ...rule, revision: String(revision) } as DiscountRule & Document,
          columns: { revision },
        };
      },
    );
    return withStatus(updated);
  }

  deleteDiscountRule(id: string): Promise<void> {
    return this.remove('discount_rules', id, 'discount rule');
  }

  // ---- documents ----

  private async list<T>(table: DocumentTable, executor: Kysely<Tables> = this.db): Promise<T[]> {
    const rows = await executor
      .selectFrom(table)
      .select('doc')
      .orderBy('created_date')
      .orderBy('id')
      .execute();
    return rows.map((row) => JSON.parse(row.doc) as T);
  }

  private async create<T extends Document>(
    table: DocumentTable,
    draft: Omit<T, keyof Document>,
    columns: Record<string, string | number>,
    entity: string,
  ): Promise<T> {
    const at = new Date().toISOString();
    const doc = { id: newId(), ...draft, createdDate: at, updatedDate: at } as T;
    try {
      await inTransaction(this.db, async (trx) => {
        await trx
          .insertInto(table)
          .values({
            id: doc.id,
            doc: JSON.stringify(doc),
            created_date: at,
            updated_date: at,
            ...columns,
          } as never)
          .execute();
        await movePricingVersion(trx, 'store-settings');
      });
    } catch (error) {
      throw alreadyExists(error, entity, columns) ?? error;
    } finally {
      this.changed();
    }
    return doc;
  }

  private async update<T extends Document>(
    table: DocumentTable,
    id: string,
    entity: string,
    change: (current: T) => { doc: T; columns: Record<string, string | number> },
  ): Promise<T> {
    try {
      return await inTransaction(this.db, async (trx) => {
        const row = await trx
          .selectFrom(table)
          .select('doc')
          .where('id', '=', id)
          .$if(this.options.dialect === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst();
        if (!row) throw notFound(entity, id);
        const { doc, columns } = change(JSON.parse(row.doc) as T);
        const updated = { ...doc, id, updatedDate: new Date().toISOString() };
        try {
          await trx
            .updateTable(table)
            .set({ doc: JSON.stringify(updated), updated_date: updated.updatedDate, ...columns } as never)
            .where('id', '=', id)
            .execute();
        } catch (error) {
          throw alreadyExists(error, entity, columns) ?? error;
        }
        await movePricingVersion(trx, 'store-settings');
        return updated;
      });
    } finally {
      this.changed();
    }
  }

  private async remove(table: DocumentTable, id: string, entity: string): Promise<void> {
    try {
      await inTransaction(this.db, async (trx) => {
        const result = await trx.deleteFrom(table).where('id', '=', id).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw notFound(entity, id);
        await movePricingVersion(trx, 'store-settings');
      });
    } finally {
      this.changed();
    }
  }
}

/** A unique column refused the row: another setting already has that code or place. */
function alreadyExists(error: unknown, entity: string, columns: Record<string, string | number>) {
  const code = (error as { code?: unknown })?.code;
  const message = String((error as { message?: unknown })?.message ?? '');
  if (code !== '23505' && !(code === 'SQLITE_CONSTRAINT_UNIQUE' || message.includes('UNIQUE constraint')))
    return null;
  const key = Object.entries(columns).find(([name]) => name !== 'revision');
  return applicationError(
    'ALREADY_EXISTS',
    `${entity.toUpperCase().replace(/\s+/g, '_')}_ALREADY_EXISTS`,
    `a ${entity} with ${key ? `${key[0].replace('_key', '')} ${key[1]}` : 'these keys'} already exists`,
    key ? { [key[0]]: key[1] } : undefined,
  );
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    return Intl.supportedValuesOf('currency').includes(code);
  } catch {
    return true;
  }
}

/** Collects business-rule violations the schemas cannot express (real country codes, ranges). */
class Problems {
  readonly list: FieldViolation[] = [];
  add(field: string, description: string, rule: RuleName = 'VALIDATION'): void {
    this.list.push(violation(field, description, rule));
  }
  country(field: string, value: string): void {
    if (!isCountryCode(value)) this.add(field, 'must be an ISO 3166-1 alpha-2 country code (US, DE, ...)');
  }
  amount(field: string, value: string | null | undefined): void {
    if (value === null || value === undefined) return;
    const amount = decimal(value);
    if (!amount || amount.lt(0)) this.add(field, 'must be a decimal amount of zero or more ("5.99")');
  }
  /**
   * A percentage off: above 0, at most 100, and (as the catalog's percent discounts) at most two
   * decimals, so `1e-300` is refused rather than kept as a discount of nothing.
   */
  percentage(field: string, value: number | null | undefined, required: string | null): void {
    if (value === null || value === undefined) {
      if (required) this.add(field, required);
    } else if (!(value > 0 && value <= 100)) {
      this.add(field, required ?? 'must be above 0, at most 100');
    } else if (Math.round(value * 100) / 100 !== value) {
      this.add(field, 'must have at most two decimals', 'DECIMAL_MAX_SCALE');
    }
  }
  /** An ISO-8601 date, as milliseconds; undefined (and a violation) when it is not one. */
  date(field: string, value: unknown): number | undefined {
    if (value === null || value === undefined) return undefined;
    const time = Date.parse(String(value));
    if (Number.isNaN(time)) this.add(field, 'must be an ISO-8601 date');
    return Number.isNaN(time) ? undefined : time;
  }
  /** A window's end after its start, named at the end: the field a merchant moves. */
  window(startField: string, start: number | undefined, endField: string, end: number | undefined): void {
    if (start !== undefined && end !== undefined && start >= end)
      this.add(endField, `must be after ${startField.slice(startField.lastIndexOf('.') + 1)}`);
  }
  done<T>(value: T): T {
    if (this.list.length > 0) throw invalidArgument(this.list);
    return value;
  }
}

function checkTaxRegion(draft: TaxRegionDraft, prefix: string): TaxRegionDraft {
  const problems = new Problems();
  const country = draft.country.toUpperCase();
  problems.country(`${prefix}.country`, country);
  const subdivision = draft.subdivision ? subdivisionCode(country, draft.subdivision) : null;
  if (subdivision && !subdivision.startsWith(`${country}-`)) {
    problems.add(`${prefix}.subdivision`, `must be a subdivision of ${country} (${country}-XX)`);
  }
  const rate = decimal(draft.rate);
  if (!rate || rate.lt(0) || rate.gt(1))
    problems.add(`${prefix}.rate`, 'must be a decimal between 0 and 1 ("0.08875")');
  return problems.done({
    ...draft,
    country,
    subdivision,
    rate: rate ? rate.toString() : draft.rate,
    taxShipping: draft.taxShipping ?? false,
  });
}

function checkShippingRegion(draft: ShippingRegionDraft, prefix: string): ShippingRegionDraft {
  const problems = new Problems();
  const destinations = draft.destinations.map((destination, index) => {
    const country = destination.country.toUpperCase();
    problems.country(`${prefix}.destinations[${index}].country`, country);
    const subdivisions = (destination.subdivisions ?? []).map((s) => subdivisionCode(country, s)!);
    subdivisions.forEach((s, i) => {
      if (!s.startsWith(`${country}-`))
        problems.add(
          `${prefix}.destinations[${index}].subdivisions[${i}]`,
          `must be a subdivision of ${country}`,
        );
    });
    return subdivisions.length > 0 ? { country, subdivisions } : { country };
  });
  const codes = new Set<string>();
  draft.options.forEach((option, index) => {
    const field = `${prefix}.options[${index}]`;
    if (codes.has(option.code)) problems.add(`${field}.code`, 'is used by another option of this region');
    codes.add(option.code);
    problems.amount(`${field}.rate.price`, option.rate.price);
    problems.amount(`${field}.rate.pricePerWeightUnit`, option.rate.pricePerWeightUnit);
    problems.amount(`${field}.rate.freeShippingAbove`, option.rate.freeShippingAbove);
    (option.rate.weightBrackets ?? []).forEach((bracket, i) => {
      problems.amount(`${field}.rate.weightBrackets[${i}].price`, bracket.price);
    });
    if (option.rate.kind === 'FLAT_RATE' && option.rate.price === undefined)
      problems.add(`${field}.rate.price`, 'is required for a FLAT_RATE option');
    if (
      option.rate.kind === 'BY_WEIGHT' &&
      option.rate.pricePerWeightUnit === undefined &&
      !option.rate.weightBrackets?.length
    ) {
      problems.add(`${field}.rate`, 'a BY_WEIGHT option needs pricePerWeightUnit or weightBrackets');
    }
    (option.deliveryTimeSlots ?? []).forEach((slot, i) => {
      if (!(Date.parse(slot.from) < Date.parse(slot.to)))
        problems.add(`${field}.deliveryTimeSlots[${i}]`, 'from must be a date before to');
    });
  });
  return problems.done({ ...draft, destinations });
}

function checkPickupLocation(draft: PickupLocationDraft, prefix: string): PickupLocationDraft {
  const problems = new Problems();
  const country = draft.address.country?.toUpperCase();
  if (country) problems.country(`${prefix}.address.country`, country);
  problems.amount(`${prefix}.price`, draft.price);
  return problems.done({
    ...draft,
    address: { ...draft.address, ...(country ? { country } : {}) },
    price: draft.price ?? '0.00',
    pickupMethod: draft.pickupMethod ?? 'STORE_PICKUP',
  });
}

function checkCoupon(draft: CouponDraft, prefix: string): CouponDraft {
  const problems = new Problems();
  problems.percentage(
    `${prefix}.percentage`,
    draft.percentage,
    draft.discountType === 'PERCENTAGE'
      ? 'a PERCENTAGE coupon needs a percentage above 0, at most 100'
      : null,
  );
  if (draft.discountType === 'FIXED_AMOUNT') {
    const amount = decimal(draft.fixedAmount);
    if (!amount || amount.lte(0))
      problems.add(`${prefix}.fixedAmount`, 'a FIXED_AMOUNT coupon needs a decimal amount above 0 ("5.00")');
  }
  problems.amount(`${prefix}.minimumSubtotal`, draft.minimumSubtotal);
  problems.window(
    `${prefix}.startTime`,
    problems.date(`${prefix}.startTime`, draft.startTime),
    `${prefix}.expirationTime`,
    problems.date(`${prefix}.expirationTime`, draft.expirationTime),
  );
  return problems.done({
    ...draft,
    code: draft.code.trim(),
    name: draft.name ?? draft.code.trim(),
    active: draft.active ?? true,
  });
}

function checkDiscountRule(rule: DiscountRule, prefix: string): DiscountRule {
  const problems = new Problems();
  const { start, end } = rule.activeTimeInfo ?? {};
  problems.window(
    `${prefix}.activeTimeInfo.start`,
    problems.date(`${prefix}.activeTimeInfo.start`, start),
    `${prefix}.activeTimeInfo.end`,
    problems.date(`${prefix}.activeTimeInfo.end`, end),
  );
  (rule.discounts?.values ?? []).forEach((value, index) => {
    const field = `${prefix}.discounts.values[${index}]`;
    const type = value.discountType ?? (value.percentage != null ? 'PERCENTAGE' : 'FIXED_AMOUNT');
    problems.percentage(
      `${field}.percentage`,
      value.percentage,
      type === 'PERCENTAGE' ? 'a PERCENTAGE discount needs a percentage above 0, at most 100' : null,
    );
    if (type === 'FIXED_AMOUNT') problems.amount(`${field}.fixedAmount`, value.fixedAmount ?? '-');
    if (type === 'FIXED_PRICE') problems.amount(`${field}.fixedPrice`, value.fixedPrice ?? '-');
  });
  checkTrigger(problems, rule.trigger as Record<string, unknown> | undefined, `${prefix}.trigger`, 0);
  if ((rule.discounts?.values ?? []).length === 0)
    problems.add(`${prefix}.discounts.values`, 'needs at least one discount');
  return problems.done({ ...rule, active: rule.active ?? true });
}

/** The deepest a rule's `and`/`or` triggers nest, and the most triggers one level holds. */
const MAX_TRIGGER_DEPTH = 4;
const MAX_TRIGGERS = 20;

/** The hosted platform's trigger types (its `TriggerType`): a name outside them is refused, not kept. */
export const DISCOUNT_TRIGGER_TYPES = [
  'UNDEFINED',
  'AND',
  'SUBTOTAL_RANGE',
  'ITEM_QUANTITY_RANGE',
  'CUSTOM',
  'OR',
] as const;

/**
 * A trigger is one of: `and`/`or` of triggers, `subtotalRange` {from, to}, `itemQuantityRange`
 * {from, to}, `customTrigger` {id, appId}; `triggerType` names which. A range's `to` is not below its
 * `from`.
 */
function checkTrigger(
  problems: Problems,
  trigger: Record<string, unknown> | undefined,
  field: string,
  depth: number,
): void {
  if (trigger === undefined || trigger === null) return;
  if (typeof trigger !== 'object' || Array.isArray(trigger)) {
    problems.add(field, 'must be an object');
    return;
  }
  const type = trigger.triggerType;
  if (
    type !== undefined &&
    type !== null &&
    !(typeof type === 'string' && (DISCOUNT_TRIGGER_TYPES as readonly string[]).includes(type))
  ) {
    problems.add(
      `${field}.triggerType`,
      `must be one of ${DISCOUNT_TRIGGER_TYPES.join(', ')}`,
      'INVALID_ENUM_VALUE',
    );
  }
  for (const group of ['and', 'or'] as const) {
    const value = trigger[group] as { triggers?: unknown } | undefined;
    if (value === undefined) continue;
    const triggers = value?.triggers;
    if (depth >= MAX_TRIGGER_DEPTH) {
      problems.add(`${field}.${group}`, `nests deeper than ${MAX_TRIGGER_DEPTH} levels`);
      return;
    }
    if (!Array.isArray(triggers) || triggers.length > MAX_TRIGGERS) {
      problems.add(`${field}.${group}.triggers`, `must be a list of at most ${MAX_TRIGGERS} triggers`);
      return;
    }
    triggers.forEach((t, i) => {
      checkTrigger(problems, t as Record<string, unknown>, `${field}.${group}.triggers[${i}]`, depth + 1);
    });
  }
  const subtotal = trigger.subtotalRange as Record<string, unknown> | undefined;
  if (subtotal !== undefined) {
    const [from, to] = (['from', 'to'] as const).map((end) => {
      const value = subtotal?.[end];
      if (value === undefined || value === null) return undefined;
      const amount = typeof value === 'string' ? decimal(value) : null;
      if (!amount || amount.lt(0)) {
        problems.add(`${field}.subtotalRange.${end}`, 'must be a decimal amount of zero or more ("50.00")');
        return undefined;
      }
      return amount;
    });
    if (from && to?.lt(from)) problems.add(`${field}.subtotalRange.to`, 'must not be below from');
  }
  const quantity = trigger.itemQuantityRange as Record<string, unknown> | undefined;
  if (quantity !== undefined) {
    const [from, to] = (['from', 'to'] as const).map((end) => {
      const value = quantity?.[end];
      if (value === undefined || value === null) return undefined;
      if (!Number.isSafeInteger(value) || (value as number) < 0) {
        problems.add(`${field}.itemQuantityRange.${end}`, 'must be a whole number of zero or more');
        return undefined;
      }
      return value as number;
    });
    if (from !== undefined && to !== undefined && to < from)
      problems.add(`${field}.itemQuantityRange.to`, 'must not be below from');
  }
  const custom = trigger.customTrigger as Record<string, unknown> | undefined;
  if (custom !== undefined && custom !== null) {
    for (const key of ['id', 'appId']) {
      const value = custom[key];
      if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > 200))
        problems.add(`${field}.customTrigger.${key}`, 'must be text of at most 200 characters', 'FORMAT');
    }
  }
}
