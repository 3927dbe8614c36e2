/**
 * What the cart and the checkout ask of pricing, and what they get back. Pricing owns every rule that
 * turns lines into money (catalog prices, discounts, shipping, tax, rounding); carts and checkouts own
 * storage and never compute an amount themselves.
 */
import type {
  Address,
  AppliedDiscount,
  CalculatedLineItem,
  CalculationErrors,
  CatalogReference,
  CustomLineItem,
  LineItem,
  MembershipOptions,
  MerchantDiscountInput,
  PriceSummary,
  SelectedShippingOption,
  ShippingInfo,
  TaxSummary,
  Violation,
  WeightUnit,
} from '@cartwheel/sdk';

/** One stored line of a cart or checkout: a catalog reference or a custom line, and a quantity. */
export interface StoredLine {
  /** The line's id, stable for the life of the line (`remove-line-items` names it). */
  id: string;
  quantity: number;
  /** A catalog line: `{ appId: STORES_APP_ID, catalogItemId, options: { variantId } | { options } }`. */
  catalogReference?: CatalogReference;
  /** A custom line as the caller described it (validated on the way in): priced by its own `price`. */
  custom?: CustomLineItem;
  /** Catalog override fields the caller set (elevated callers only). */
  catalogOverrideFields?: LineItem['catalogOverrideFields'];
  /**
   * The variant the line's options chose when it was added (absent: no options, the product's only
   * variant): what makes two lines one item however their options name the variant.
   */
  chosenVariantId?: string;
  /** The modifiers chosen and texts written when it was added, in one spelling (`chosenModifiersKey`). */
  chosenModifiers?: string;
}

export interface PricingRequest {
  lines: StoredLine[];
  /** The coupon the cart or checkout holds (already accepted by `checkCoupon`); re-checked here. */
  couponCode?: string | null;
  merchantDiscounts?: MerchantDiscountInput[];
  shippingAddress?: Address | null;
  billingAddress?: Address | null;
  selectedShippingOption?: SelectedShippingOption | null;
  /** Default true: tax from the shipping (else billing) address's region. */
  calculateTax?: boolean;
  /** Default true: shipping options for the shipping address's region. */
  calculateShipping?: boolean;
  /** The moment prices are taken at (discount rules' time windows). Default now. */
  now?: Date;
}

/** A priced cart or checkout: every wire piece a cart, a checkout, estimate-totals and an order need. */
export interface Priced {
  currency: string;
  weightUnit: WeightUnit;
  taxIncludedInPrices: boolean;
  /** Wire line items: catalog name, image, description lines, prices, availability, physical properties. */
  lineItems: LineItem[];
  /** Per line: `pricesBreakdown` (price, lineItemPrice, totalDiscount, totalPriceBeforeTax/AfterTax, taxDetails). */
  calculatedLineItems: CalculatedLineItem[];
  priceSummary: PriceSummary;
  taxSummary: TaxSummary;
  shippingInfo: ShippingInfo;
  appliedDiscounts: AppliedDiscount[];
  /** Set when something could not be calculated (an unknown region, a line that no longer exists, ...). */
  calculationErrors?: CalculationErrors;
  membershipOptions: MembershipOptions;
  violations: Violation[];
  /** Decimal strings, the parts of `priceSummary` before formatting (for orders and the gateway). */
  amounts: { subtotal: string; shipping: string; tax: string; discount: string; total: string };
  /** Whether any line ships (create-order then needs a destination and a carrier option). */
  shippable: boolean;
}
