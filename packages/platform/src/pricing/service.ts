import type { Kysely } from 'kysely';
import type { CatalogService } from '../catalog/service.ts';
import type { Tables } from '../db/tables.ts';
import { applicationError } from '../shared/errors.ts';
import { currencyOf } from '../shared/money.ts';
import type { StoreSettingsService } from '../store-settings/service.ts';
import type { Priced, PricingRequest, StoredLine } from './contract.ts';
import { couponRefusal, nextWindowChange, priceLines } from './engine.ts';
import { chosenVariantId, LineResolver } from './lines.ts';
import { chosenModifiersKey } from './modifiers.ts';

/** What pricing reads: the catalog's products and the store's settings. */
export interface PricingSources {
  catalog: Pick<CatalogService, 'pricingFacts'>;
  storeSettings: Pick<StoreSettingsService, 'commerceSettings' | 'currentCommerceSettings'>;
}

/**
 * Prices carts and checkouts from the catalog and the store's settings (see contract.ts). A price
 * costs one catalog query for all of a cart's products; the settings come from a brief snapshot.
 */
export class PricingService {
  private readonly lines = new LineResolver();

  constructor(private readonly sources: PricingSources) {}

  async price(request: PricingRequest, executor?: Kysely<Tables>): Promise<Priced> {
    return (await this.priceToKeep(request, { executor })).priced;
  }

  /**
   * As `price`, for a caller that keeps the answer: the settings and products used are at least as
   * new as the `settingsVersion` and `catalogVersion` it read (store-settings/pricing-versions.ts), and `until` is
   * the first moment the clock alone may change the answer (a discount rule or coupon window opening
   * or closing; Infinity: none).
   */
  async priceToKeep(
    request: PricingRequest,
    options: { settingsVersion?: number; catalogVersion?: number; executor?: Kysely<Tables> } = {},
  ): Promise<{ priced: Priced; until: number }> {
    const { catalog, storeSettings } = this.sources;
    const productIds: string[] = [];
    for (const line of request.lines) {
      const id = line.custom ? undefined : line.catalogReference?.catalogItemId;
      if (id) productIds.push(id);
    }
    const [settings, facts] = await Promise.all([
      storeSettings.commerceSettings(options.executor, options.settingsVersion),
      catalog.pricingFacts(productIds, options.executor, options.catalogVersion),
    ]);
    const currency = currencyOf(settings.store.currency);
    const lines = request.lines.map((line) => this.lines.resolve(line, facts, currency));
    const now = request.now ?? new Date();
    return { priced: priceLines(lines, settings, request, now), until: nextWindowChange(settings, now) };
  }

  /**
   * Records on each catalog line that names its variant by choices the variant they choose
   * (`StoredLine.chosenVariantId`): the line is then priced, stocked and paid for as that variant however
   * its choices were spelled, and adding the same variant again grows that line.
   */
  async recordChosenVariants(lines: StoredLine[]): Promise<void> {
    const byChoices = lines.filter(
      (line) =>
        !line.custom &&
        (line.catalogReference?.options?.options != null ||
          line.catalogReference?.options?.customTextFields != null),
    );
    if (byChoices.length === 0) return;
    const facts = await this.sources.catalog.pricingFacts(
      byChoices.map((line) => line.catalogReference?.catalogItemId ?? ''),
    );
    for (const line of byChoices) {
      const reference = line.catalogReference!;
      const fact = facts.get(reference.catalogItemId ?? '');
      const variantId = chosenVariantId(fact, reference.options);
      if (variantId) line.chosenVariantId = variantId;
      const modifiers = fact ? chosenModifiersKey(fact.record, reference.options) : undefined;
      if (modifiers) line.chosenModifiers = modifiers;
    }
  }

  /**
   * Refuses a code that is unknown, switched off, expired or not active yet: an application error
   * (`COUPON_DOES_NOT_EXIST`, `COUPON_IS_DISABLED`, `COUPON_IS_EXPIRED`, `COUPON_IS_NOT_ACTIVE_YET`).
   */
  async checkCoupon(code: string, now = new Date()): Promise<void> {
    // the settings as they are now, not this process's snapshot: a coupon made, switched off or
    // changed a moment ago on another process is judged as it now stands
    const settings = await this.sources.storeSettings.currentCommerceSettings();
    const refusal = couponRefusal(settings.coupons.get(code.trim().toUpperCase()), code.trim(), now);
    if (refusal) {
      // a code the buyer typed that cannot be used: a bad argument (400), as the hosted platform answers
      throw applicationError('INVALID_ARGUMENT', refusal.code, refusal.description, { couponCode: code });
    }
  }
}
