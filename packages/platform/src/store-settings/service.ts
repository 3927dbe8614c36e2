import type { CheckoutSettingsPatch, DiscountRule } from '@cartwheel/sdk';
import { type Kysely, sql } from 'kysely';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, type EventEntity, recordEvents } from '../events/outbox.ts';
import { nowIso } from '../shared/clock.ts';
import { applicationError, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { checkoutSettingsOf, patchedCheckoutSettings } from './checkout-settings.ts';
import {
  checkCoupon,
  checkDiscountRule,
  checkPickupLocation,
  checkShippingRegion,
  checkStoreSettings,
  checkTaxRegion,
} from './checks.ts';
import {
  type CheckoutSettings,
  type CommerceSettings,
  type Coupon,
  type CouponDraft,
  DEFAULT_STORE_SETTINGS,
  type Draft,
  type PickupLocation,
  type PickupLocationDraft,
  type SettingsDocument,
  type ShippingRegion,
  type ShippingRegionDraft,
  type StoreCommerceSettings,
  type TaxRegion,
  type TaxRegionDraft,
  windowStatus,
} from './model.ts';
import { movePricingVersion, settingsVersion } from './pricing-versions.ts';

type Document = SettingsDocument;

export type {
  CouponDraft,
  Draft,
  PickupLocationDraft,
  ShippingRegionDraft,
  TaxRegionDraft,
} from './model.ts';

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
    return row ? keptStoreSettings(row.doc) : DEFAULT_STORE_SETTINGS;
  }

  async updateStoreSettings(
    patch: Partial<Omit<StoreCommerceSettings, 'checkoutSettings'>>,
  ): Promise<StoreCommerceSettings> {
    checkStoreSettings(patch);
    return this.changeStore((current) => ({ ...current, ...definedOnly(patch) }));
  }

  async checkoutSettings(): Promise<CheckoutSettings> {
    return (await this.storeSettings()).checkoutSettings;
  }

  /** Changes what the patch names (the hosted call's whole shape), announced as checkout settings updated. */
  async updateCheckoutSettings(patch: CheckoutSettingsPatch): Promise<CheckoutSettings> {
    const store = await this.changeStore(
      (current) => ({
        ...current,
        checkoutSettings: patchedCheckoutSettings(current.checkoutSettings, patch, nowIso()),
      }),
      (next) => [
        {
          entity: 'checkoutSettings',
          slug: 'updated',
          entityId: 'checkout-settings',
          payload: { entity: next.checkoutSettings },
        },
      ],
    );
    return store.checkoutSettings;
  }

  private async changeStore(
    change: (current: StoreCommerceSettings) => StoreCommerceSettings,
    events: (next: StoreCommerceSettings) => DomainEvent[] = () => [],
  ): Promise<StoreCommerceSettings> {
    try {
      return await inTransaction(this.db, async (trx) => {
        const row = await trx
          .selectFrom('store_settings')
          .select('doc')
          .where('key', '=', 'store')
          .$if(this.options.dialect === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst();
        const current = row ? keptStoreSettings(row.doc) : DEFAULT_STORE_SETTINGS;
        const next = change(current);
        const doc = JSON.stringify(next);
        const updated_date = new Date().toISOString();
        await trx
          .insertInto('store_settings')
          .values({ key: 'store', doc, updated_date })
          .onConflict((oc) => oc.column('key').doUpdateSet({ doc, updated_date }))
          .execute();
        await recordEvents(trx, events(next));
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
        await recordEvents(trx, documentEvents(table, 'created', doc));
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
        await recordEvents(trx, documentEvents(table, 'updated', updated));
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
        await recordEvents(trx, documentEvents(table, 'deleted', { id }));
        await movePricingVersion(trx, 'store-settings');
      });
    } finally {
      this.changed();
    }
  }
}

/** The settings documents whose changes the hosted platform announces, by table. */
const EVENT_ENTITY_OF: Partial<Record<DocumentTable, EventEntity>> = { discount_rules: 'discountRule' };

/** A settings document's change as its event (`wix.ecom.discounts.v1.discount_rule`), if it has one. */
function documentEvents(
  table: DocumentTable,
  slug: 'created' | 'updated' | 'deleted',
  doc: { id: string },
): DomainEvent[] {
  const entity = EVENT_ENTITY_OF[table];
  if (!entity) return [];
  const payload = slug === 'deleted' ? { entityId: doc.id } : { entity: doc };
  return [{ entity, slug, entityId: doc.id, payload }];
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

/** The store's settings row as kept, every part filled in (checkout settings kept before their whole shape too). */
function keptStoreSettings(doc: string): StoreCommerceSettings {
  const kept = JSON.parse(doc) as Partial<StoreCommerceSettings>;
  return { ...DEFAULT_STORE_SETTINGS, ...kept, checkoutSettings: checkoutSettingsOf(kept.checkoutSettings) };
}
