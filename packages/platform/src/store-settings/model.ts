import type {
  Address,
  CouponDiscountType,
  DiscountRule,
  PickupMethod,
  StoreCheckoutSettings,
  StoreCoupon,
  WeightUnit,
} from '@cartwheel/sdk';

/**
 * The store's commerce settings as pricing reads them: one snapshot, loaded in a few queries and kept
 * briefly in memory (price() runs on every cart read). Amounts are decimal strings, rates 0..1.
 */
export interface CommerceSettings {
  store: StoreCommerceSettings;
  taxRegions: TaxRegion[];
  shippingRegions: ShippingRegion[];
  pickupLocations: PickupLocation[];
  discountRules: DiscountRule[];
  /** By code in upper case: codes are matched without regard to case. */
  coupons: Map<string, Coupon>;
}

/** The hosted call's whole checkout settings: a wire type, declared once in the SDK. */
export type CheckoutSettings = StoreCheckoutSettings;

export interface StoreCommerceSettings {
  /** ISO 4217: every amount of the store is in it. */
  currency: string;
  /** The unit catalog weights are in, and weight-based shipping rates are per. */
  weightUnit: WeightUnit;
  /** Whether catalog prices already include tax (tax is then extracted, not added). */
  taxIncludedInPrices: boolean;
  checkoutSettings: CheckoutSettings;
}

/** A tax rate for a country, or for one subdivision of it (`US-NY`), which wins over the country's. */
export interface TaxRegion {
  id: string;
  /** The jurisdiction's name as a receipt shows it: "New York". */
  name: string;
  country: string;
  /** ISO 3166-2 (`US-NY`), or null for the whole country. */
  subdivision: string | null;
  /** Decimal string between 0 and 1: `"0.08875"`. */
  rate: string;
  /** Whether shipping to this region is taxed at the same rate. */
  taxShipping: boolean;
  createdDate: string;
  updatedDate: string;
}

export interface ShippingDestination {
  country: string;
  /** ISO 3166-2 codes; none: the whole country. */
  subdivisions?: string[];
}

export interface WeightBracket {
  /** Up to and including this weight (the store's unit); null: any weight above the previous bracket. */
  upToWeight: number | null;
  price: string;
}

/** How a delivery option's cost is worked out. */
export interface ShippingRate {
  kind: 'FLAT_RATE' | 'BY_WEIGHT';
  /** FLAT_RATE: the cost of the whole shipment. */
  price?: string;
  /** BY_WEIGHT: a price per weight unit, or brackets (first bracket the weight fits). */
  pricePerWeightUnit?: string;
  weightBrackets?: WeightBracket[];
  /** The option costs nothing when the discounted item subtotal reaches this. */
  freeShippingAbove?: string | null;
}

export interface DeliveryTimeSlotSetting {
  from: string;
  to: string;
}

export interface ShippingRateOption {
  code: string;
  title: string;
  /** Free text: "3-5 business days". */
  deliveryTime?: string | null;
  rate: ShippingRate;
  /** Each slot is offered as its own option (`{code}-slot-{n}`) carrying `logistics.deliveryTimeSlot`. */
  deliveryTimeSlots?: DeliveryTimeSlotSetting[];
}

export interface ShippingRegion {
  id: string;
  name: string;
  destinations: ShippingDestination[];
  options: ShippingRateOption[];
  createdDate: string;
  updatedDate: string;
}

/** Where a buyer may collect an order: offered with every shipment, whatever the destination. */
export interface PickupLocation {
  id: string;
  code: string;
  title: string;
  pickupMethod: PickupMethod;
  address: Address;
  /** Usually "0.00". */
  price: string;
  instructions?: string | null;
  deliveryTime?: string | null;
  createdDate: string;
  updatedDate: string;
}

/** A coupon is Cartwheel's own admin wire type: declared once, in the SDK (issue 37). */
export type Coupon = StoreCoupon;
export type { CouponDiscountType };

export type WindowStatus = 'LIVE' | 'EXPIRED' | 'PENDING';

/** Where `now` falls in a start..end window (no start: always started; no end: never ends). */
export function windowStatus(
  start: string | Date | null | undefined,
  end: string | Date | null | undefined,
  now: Date,
): WindowStatus {
  const at = now.getTime();
  if (start && momentOf(start) > at) return 'PENDING';
  if (end && momentOf(end) <= at) return 'EXPIRED';
  return 'LIVE';
}

/** Window moments read so far: every price reads every rule's and coupon's window again. */
const moments = new Map<string, number>();

/** A window's start or end in milliseconds (NaN when it is no date). */
export function momentOf(moment: string | Date): number {
  if (typeof moment !== 'string') return moment.getTime();
  let time = moments.get(moment);
  if (time === undefined) {
    time = new Date(moment).getTime();
    if (moments.size >= 1000) moments.clear();
    moments.set(moment, time);
  }
  return time;
}

export const DEFAULT_STORE_SETTINGS: StoreCommerceSettings = {
  currency: 'USD',
  weightUnit: 'KG',
  taxIncludedInPrices: false,
  checkoutSettings: {
    status: 'ACTIVE',
    checkoutPolicies: {},
    checkoutFields: {},
    checkoutBrand: { header: { logo: null, alignment: 'SIDE' } },
  },
};

export function emptyCommerceSettings(
  store: StoreCommerceSettings = DEFAULT_STORE_SETTINGS,
): CommerceSettings {
  return {
    store,
    taxRegions: [],
    shippingRegions: [],
    pickupLocations: [],
    discountRules: [],
    coupons: new Map(),
  };
}

/** A setting as the store keeps it: a document with its id and dates. */
export type SettingsDocument = { id: string; createdDate: string; updatedDate: string };
/** What a caller gives to create a setting: everything but its id and dates. */
export type Draft<T extends SettingsDocument> = Omit<T, 'id' | 'createdDate' | 'updatedDate'>;

export type TaxRegionDraft = Draft<TaxRegion>;
export type ShippingRegionDraft = Draft<ShippingRegion>;
export type PickupLocationDraft = Draft<PickupLocation>;
export type CouponDraft = Draft<Coupon>;
