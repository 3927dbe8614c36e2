import type { Checkout, CheckoutLineItem, DescriptionLine, MultiCurrencyPrice } from '@cartwheel/sdk';
import type { ReactNode } from 'react';

/**
 * The lines and totals exactly as the checkout states them: the page shows the platform's amounts
 * and never computes money of its own.
 */
export function OrderSummary({
  checkout,
  taxIncluded,
  updating,
  pickup = false,
  children,
}: {
  checkout: Checkout;
  taxIncluded: boolean;
  updating: boolean;
  /** The chosen delivery method is a pickup: its price is the pickup's, not shipping. */
  pickup?: boolean;
  /** The coupon field, between the lines and the totals. */
  children?: ReactNode;
}) {
  const summary = checkout.priceSummary;
  const hasDiscount = !isZero(summary?.discount);
  return (
    <section className="summary" aria-labelledby="summary-heading" aria-busy={updating}>
      <div className="summary__head">
        <h2 id="summary-heading">Order summary</h2>
        {updating ? (
          <span className="summary__busy" role="status">
            Updating totals…
          </span>
        ) : null}
      </div>
      <ul className="lines" aria-label="Items">
        {(checkout.lineItems ?? []).map((line) => {
          const name = line.productName?.translated || line.productName?.original || 'Item';
          const options = (line.descriptionLines ?? []).map(describe).filter(Boolean);
          return (
            <li className="line" key={line.id ?? name}>
              <div className="line__image">
                {imageUrl(line) ? <img src={imageUrl(line)} alt="" width={56} height={56} /> : null}
              </div>
              <div className="line__text">
                <span className="line__name">{name}</span>
                {options.length > 0 ? <span className="line__options">{options.join(' · ')}</span> : null}
                <span className="line__options">Qty {line.quantity ?? 1}</span>
                <Availability line={line} />
              </div>
              <span className="line__price">{money(line.lineItemPrice)}</span>
            </li>
          );
        })}
      </ul>
      {children}
      <dl className="totals">
        <Row name="subtotal" label="Subtotal" value={money(summary?.subtotal)} />
        {/* a discount is a line only when there is one: "Discount $0.00" tells the shopper nothing */}
        {hasDiscount ? <Row name="discount" label="Discount" value={`−${money(summary?.discount)}`} /> : null}
        <Row name="shipping" label={pickup ? 'Pickup' : 'Shipping'} value={money(summary?.shipping)} />
        <Row name="tax" label={taxIncluded ? 'Tax (included)' : 'Tax'} value={money(summary?.tax)} />
        <Row name="total" label="Total" value={money(summary?.total)} total />
      </dl>
    </section>
  );
}

function Row({ name, label, value, total }: { name: string; label: string; value: string; total?: boolean }) {
  return (
    <div className={total ? 'totals__row totals__row--total' : 'totals__row'}>
      <dt>{label}</dt>
      <dd data-testid={`price-${name}`}>{value}</dd>
    </div>
  );
}

/** A line the store cannot sell as asked: said beside it, since paying for it will be refused. */
function Availability({ line }: { line: CheckoutLineItem }) {
  const status = line.availability?.status;
  if (status === 'NOT_AVAILABLE' || status === 'NOT_FOUND') {
    return <span className="line__problem">No longer available</span>;
  }
  if (status === 'PARTIALLY_AVAILABLE') {
    const left = line.availability?.quantityAvailable;
    return <span className="line__problem">{left ? `Only ${left} left` : 'Not enough in stock'}</span>;
  }
  return null;
}

/** The checkout wire names a line's image `media`; a cart's line calls it `image`. */
function imageUrl(line: CheckoutLineItem): string | undefined {
  return line.image?.url || line.media?.url || undefined;
}

/** `Size: M`, `Color: Red`. */
function describe(line: DescriptionLine): string {
  const name = line.name?.translated || line.name?.original;
  const value =
    line.plainText?.translated ||
    line.plainText?.original ||
    line.colorInfo?.translated ||
    line.colorInfo?.original;
  return name && value ? `${name}: ${value}` : (value ?? name ?? '');
}

export function money(price: MultiCurrencyPrice | undefined): string {
  return price?.formattedAmount || price?.amount || '—';
}

/** "0", "0.00", "-0.0": a decimal string that says nothing is off (read, not computed). */
function isZero(price: MultiCurrencyPrice | undefined): boolean {
  return !price?.amount || /^-?0*(\.0*)?$/.test(price.amount);
}
