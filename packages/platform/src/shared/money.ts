import type { MultiCurrencyPrice } from '@cartwheel/sdk';
import Big from 'big.js';

/** Half away from zero (big.js's ROUND_HALF_UP): 0.005 -> 0.01, -0.005 -> -0.01. */
const HALF_AWAY_FROM_ZERO = 1;
const ZERO = new Big(0);

export { Big };
export const zero = (): Big => ZERO;

/**
 * Exact money in one currency. Amounts are big.js decimals, never binary floats: `0.1 + 0.2` is
 * `0.3`, and a tax of 8.875% on $0.30 is 0.026625 until it is rounded, once, to the currency's cents.
 */
export class Currency {
  readonly decimals: number;
  private readonly pattern: { positive: AmountPattern; negative: AmountPattern };

  constructor(readonly code: string) {
    const formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    this.decimals = formatter.resolvedOptions().maximumFractionDigits ?? 2;
    this.pattern = {
      positive: patternOf(formatter, '1234567.5'),
      negative: patternOf(formatter, '-1234567.5'),
    };
  }

  /** Rounds to the currency's smallest unit, half away from zero. */
  round(amount: Big): Big {
    return amount.round(this.decimals, HALF_AWAY_FROM_ZERO);
  }

  /** `"10.50"`: the wire's decimal string, always with the currency's decimals. */
  text(amount: Big): string {
    return amount.toFixed(this.decimals, HALF_AWAY_FROM_ZERO);
  }

  /** `"$10.50"`: as a shopper reads it. Formats the decimal string, so no float ever rounds it. */
  format(amount: Big): string {
    return this.formatText(this.text(amount));
  }

  /**
   * `text` (a decimal string with the currency's decimals) as Intl.NumberFormat writes it in en-US,
   * laid out from the pattern Intl gave once: a call of Intl for every amount was most of pricing a
   * line, and a cache of its answers missed for every new total.
   */
  formatText(text: string): string {
    const negative = text.startsWith('-');
    const { prefix, group, decimal, suffix } = negative ? this.pattern.negative : this.pattern.positive;
    const digits = negative ? text.slice(1) : text;
    const point = digits.indexOf('.');
    const whole = point < 0 ? digits : digits.slice(0, point);
    let grouped = whole;
    if (group !== '' && whole.length > 3) {
      grouped = whole.slice(0, whole.length % 3 || 3);
      for (let at = grouped.length; at < whole.length; at += 3) grouped += group + whole.slice(at, at + 3);
    }
    return point < 0
      ? `${prefix}${grouped}${suffix}`
      : `${prefix}${grouped}${decimal}${digits.slice(point + 1)}${suffix}`;
  }

  /** The wire's price object; without currency conversion the converted amount is the same. */
  price(amount: Big): MultiCurrencyPrice {
    const text = this.text(amount);
    const formatted = this.formatText(text);
    return {
      amount: text,
      convertedAmount: text,
      formattedAmount: formatted,
      formattedConvertedAmount: formatted,
    };
  }
}

/** Where Intl puts the sign, symbol and separators around an amount's digits, read off one amount. */
interface AmountPattern {
  prefix: string;
  group: string;
  decimal: string;
  suffix: string;
}

function patternOf(formatter: Intl.NumberFormat, sample: string): AmountPattern {
  const parts = formatter.formatToParts(sample as unknown as number);
  const digits = (part: Intl.NumberFormatPart) => part.type === 'integer' || part.type === 'fraction';
  const first = parts.findIndex(digits);
  const last = parts.findLastIndex(digits);
  const text = (from: number, to: number) =>
    parts
      .slice(from, to)
      .map((part) => part.value)
      .join('');
  return {
    prefix: text(0, first),
    group: parts.find((part) => part.type === 'group')?.value ?? '',
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
    suffix: text(last + 1, parts.length),
  };
}

const currencies = new Map<string, Currency>();

export function currencyOf(code: string): Currency {
  let currency = currencies.get(code);
  if (!currency) {
    currency = new Currency(code);
    currencies.set(code, currency);
  }
  return currency;
}

/** Decimals read from text so far: settings are read by every price (a Big is never changed). */
const decimals = new Map<string, Big | null>();

/** A decimal from the wire or the catalog; null when it is not a finite decimal number. */
export function decimal(value: unknown): Big | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new Big(value) : null;
  if (typeof value !== 'string') return null;
  let read = decimals.get(value);
  if (read === undefined) {
    read = /^-?\d{1,15}(\.\d{1,12})?$/.test(value.trim()) ? new Big(value.trim()) : null;
    if (decimals.size >= 10_000) decimals.clear();
    decimals.set(value, read);
  }
  return read;
}

const isZero = (value: Big): boolean => value.c[0] === 0;

/**
 * `a + b` and `a - b`, without a new decimal when one side is zero: most of a cart's discounts, taxes
 * and shipping are, and each new decimal is an object and an array of digits to collect.
 */
export const plus = (a: Big, b: Big): Big => (isZero(b) ? a : isZero(a) ? b : a.plus(b));
export const minus = (a: Big, b: Big): Big => (isZero(b) ? a : a.minus(b));

export const minBig = (a: Big, b: Big): Big => (a.lt(b) ? a : b);
export const maxBig = (a: Big, b: Big): Big => (a.gt(b) ? a : b);
export const sumBig = (values: Iterable<Big>): Big => {
  let total = ZERO;
  for (const value of values) total = plus(total, value);
  return total;
};

/**
 * Splits `amount` across parts in proportion to their weights, in whole cents, so the shares add up
 * to `amount` exactly: each share rounded, the remainder to the last part, and no share above its
 * weight (a discount never makes a line negative). `amount` is first capped at the weights' sum.
 */
export function allocate(amount: Big, weights: readonly Big[], currency: Currency): Big[] {
  const total = sumBig(weights);
  if (weights.length === 0 || total.lte(0)) return weights.map(() => ZERO);
  const target = currency.round(minBig(amount, total));
  const shares: Big[] = [];
  let allocated = ZERO;
  weights.forEach((weight, index) => {
    const left = target.minus(allocated);
    const share =
      index === weights.length - 1
        ? left
        : minBig(minBig(currency.round(target.times(weight).div(total)), weight), maxBig(left, ZERO));
    shares.push(share);
    allocated = allocated.plus(share);
  });
  // the last part may have taken more than its weight through the others' rounding: give it back
  const last = shares.length - 1;
  let excess = shares[last]!.minus(weights[last]!);
  if (excess.gt(0)) {
    shares[last] = weights[last]!;
    for (let index = 0; index < last && excess.gt(0); index++) {
      const room = weights[index]!.minus(shares[index]!);
      const give = minBig(room, excess);
      shares[index] = shares[index]!.plus(give);
      excess = excess.minus(give);
    }
  }
  return shares;
}
