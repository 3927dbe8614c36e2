import type { PriceData } from '@cartwheel/sdk';

/** A price as the shop shows it: the price to pay, and the original struck through when discounted. */
export function Price({
  price,
  className,
  testId,
}: {
  price: PriceData | undefined;
  className?: string;
  testId?: string;
}) {
  const shown = priceLabels(price);
  if (!shown) return null;
  return (
    <p className={`price ${className ?? ''}`} data-testid={testId}>
      {shown.original ? (
        <>
          <span className="visually-hidden">Sale price </span>
          <span className="price__current price__current--sale">{shown.current}</span>{' '}
          <span className="visually-hidden">Original price </span>
          <s className="price__original">{shown.original}</s>
        </>
      ) : (
        <span className="price__current">{shown.current}</span>
      )}
    </p>
  );
}

/** `{ current: '$20.00', original: '$25.00' }`; `original` only when there is a discount. */
export function priceLabels(
  price: PriceData | undefined,
): { current: string; original?: string } | undefined {
  if (!price || price.price === undefined) return undefined;
  const full = price.formatted?.price ?? formatMoney(price.price, price.currency);
  const discounted = price.discountedPrice;
  if (discounted !== undefined && discounted < price.price) {
    return {
      current: price.formatted?.discountedPrice ?? formatMoney(discounted, price.currency),
      original: full,
    };
  }
  return { current: full };
}

export function formatMoney(amount: number, currency = 'USD'): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
}
