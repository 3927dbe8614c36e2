import type { Discount, MeasurementUnit, PricePerUnitData } from '@cartwheel/sdk';

/** Money on the v1 wire is a JSON number with two decimals: round half away from zero, on cents. */
export function roundMoney(value: number): number {
  const cents = Math.round(Math.abs(value) * 100 + 1e-7);
  return (Math.sign(value) * cents) / 100 || 0;
}

/** The price a shopper pays once the product's discount applies; never below zero. */
export function discountedPrice(price: number, discount: Discount | undefined): number {
  const value = discount?.value ?? 0;
  switch (discount?.type) {
    case 'AMOUNT':
      return Math.max(0, roundMoney(price - value));
    case 'PERCENT':
      return Math.max(0, roundMoney(price * (1 - value / 100)));
    default:
      return roundMoney(price);
  }
}

const formatters = new Map<string, Intl.NumberFormat>();

/** `$12.00`: the store's currency, as a shopper reads it. */
export function formatMoney(amount: number, currency: string): string {
  let formatter = formatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    formatters.set(currency, formatter);
  }
  return formatter.format(amount);
}

/** Each unit's dimension and its size in that dimension's base (grams, millilitres, millimetres, m²). */
const UNITS: Record<MeasurementUnit, { dimension: 'weight' | 'volume' | 'length' | 'area'; size: number }> = {
  MG: { dimension: 'weight', size: 0.001 },
  G: { dimension: 'weight', size: 1 },
  KG: { dimension: 'weight', size: 1000 },
  OZ: { dimension: 'weight', size: 28.349523125 },
  LB: { dimension: 'weight', size: 453.59237 },
  ML: { dimension: 'volume', size: 1 },
  CL: { dimension: 'volume', size: 10 },
  L: { dimension: 'volume', size: 1000 },
  CBM: { dimension: 'volume', size: 1_000_000 },
  FLOZ: { dimension: 'volume', size: 29.5735295625 },
  PT: { dimension: 'volume', size: 473.176473 },
  QT: { dimension: 'volume', size: 946.352946 },
  GAL: { dimension: 'volume', size: 3785.411784 },
  MM: { dimension: 'length', size: 1 },
  CM: { dimension: 'length', size: 10 },
  M: { dimension: 'length', size: 1000 },
  IN: { dimension: 'length', size: 25.4 },
  FT: { dimension: 'length', size: 304.8 },
  YD: { dimension: 'length', size: 914.4 },
  SQM: { dimension: 'area', size: 1 },
  SQFT: { dimension: 'area', size: 0.09290304 },
};

export function isMeasurementUnit(unit: unknown): unit is MeasurementUnit {
  return typeof unit === 'string' && Object.hasOwn(UNITS, unit);
}

/** Whether a total in one unit can be priced per another (grams per kilo: yes; grams per litre: no). */
export function compatibleUnits(a: MeasurementUnit, b: MeasurementUnit): boolean {
  return UNITS[a].dimension === UNITS[b].dimension;
}

/** The price of `baseQuantity` base units when `totalQuantity` total units cost `price`. */
export function pricePerUnit(price: number, data: Required<PricePerUnitData>): number {
  const total = data.totalQuantity * UNITS[data.totalMeasurementUnit].size;
  const base = data.baseQuantity * UNITS[data.baseMeasurementUnit].size;
  return roundMoney((price / total) * base);
}

/** True when `value` has no more than two decimals (cents). */
export function hasCents(value: number): boolean {
  return Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}
