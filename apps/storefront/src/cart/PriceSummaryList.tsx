import type { Price } from '@cartwheel/sdk';

/** The platform's amounts, as formatted by it: a page never adds money up itself. */
export function money(price: Price | undefined): string {
  return price?.formattedAmount || price?.amount || '';
}

/** True for "0", "0.00", "-0.00": an amount worth leaving out of a summary. */
export function isZeroAmount(price: Price | undefined): boolean {
  return !price?.amount || /^-?0*(\.0*)?$/.test(price.amount);
}

export interface SummaryAmounts {
  subtotal?: Price;
  discount?: Price;
  shipping?: Price;
  tax?: Price;
  total?: Price;
}

/**
 * Subtotal, discount, shipping, tax and total, each as the platform priced it. Shipping and tax show
 * "Calculated at checkout" until an address is known (`estimated` false).
 */
export function PriceSummaryList({
  summary,
  estimated = true,
  shippingTitle,
  testIdPrefix,
}: {
  summary: SummaryAmounts | undefined;
  estimated?: boolean;
  shippingTitle?: string;
  testIdPrefix: string;
}) {
  const pending = 'Calculated at checkout';
  return (
    <dl className="summary">
      <div className="summary__row">
        <dt>Subtotal</dt>
        <dd data-testid={`${testIdPrefix}-subtotal`}>{money(summary?.subtotal)}</dd>
      </div>
      {isZeroAmount(summary?.discount) ? null : (
        <div className="summary__row summary__row--discount">
          <dt>Discount</dt>
          <dd data-testid={`${testIdPrefix}-discount`}>−{money(summary?.discount)}</dd>
        </div>
      )}
      <div className="summary__row">
        <dt>Shipping{shippingTitle ? <span className="summary__note"> ({shippingTitle})</span> : null}</dt>
        <dd data-testid={`${testIdPrefix}-shipping`}>{estimated ? money(summary?.shipping) : pending}</dd>
      </div>
      <div className="summary__row">
        <dt>Tax</dt>
        <dd data-testid={`${testIdPrefix}-tax`}>{estimated ? money(summary?.tax) : pending}</dd>
      </div>
      <div className="summary__row summary__row--total">
        <dt>Total</dt>
        <dd data-testid={`${testIdPrefix}-total`}>{money(summary?.total)}</dd>
      </div>
    </dl>
  );
}
