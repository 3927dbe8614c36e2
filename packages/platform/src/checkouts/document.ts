import type {
  Address,
  CalculationErrorDetails,
  ChannelType,
  Checkout,
  FieldViolation,
  FullAddressContactDetails,
  MerchantDiscountInput,
  SelectedShippingOption,
} from '@cartwheel/sdk';
import Big from 'big.js';
import type { Priced, StoredLine } from '../pricing/contract.ts';
import { applicationError, type DomainError, invalidArgument, violation } from '../shared/errors.ts';
import type { Principal } from '../shared/principal.ts';
import type { WireJson } from '../shared/wire-json.ts';
import type { CheckoutRow } from './tables.ts';

/** What a checkout's buyer chose: everything it is priced from. */
export interface CheckoutInputs {
  lines: StoredLine[];
  couponCode: string | null;
  merchantDiscounts: MerchantDiscountInput[];
  buyerNote: string | null;
  email: string | null;
  shippingAddress: Address | null;
  billingAddress: Address | null;
  contactDetails: FullAddressContactDetails | null;
  selectedShippingOption: SelectedShippingOption | null;
}

/**
 * The checkout as the wire carries it (point 3, dates as ISO text): the SDK's wire checkout, and
 * `taxIncludedInPrices`, the cart's name for `taxIncludedInPrice`, which the apps read on both.
 */
export type CheckoutDocument = WireJson<Checkout> & { id: string; taxIncludedInPrices: boolean };

/** The checkout's owner (who created it) or an admin; anyone else is told it does not exist. */
export function ownsCheckout(
  principal: Principal,
  row: Pick<CheckoutRow, 'visitor_id' | 'member_id'>,
): boolean {
  switch (principal.kind) {
    case 'admin':
      return true;
    case 'member':
      return (
        row.member_id === principal.memberId ||
        (row.member_id === null && row.visitor_id === principal.visitorId)
      );
    case 'visitor':
      return row.member_id === null && row.visitor_id === principal.visitorId;
    default:
      return false;
  }
}

export function checkoutDocument(row: CheckoutRow): CheckoutDocument {
  const inputs = JSON.parse(row.inputs) as CheckoutInputs;
  const priced = JSON.parse(row.priced) as Priced;
  const contact = inputs.contactDetails ? { contactDetails: inputs.contactDetails } : {};
  return {
    id: row.id,
    // the hosted checkout's line items name their image `media`; `image` stays for readers of the cart's shape
    lineItems: priced.lineItems.map((line) => (line.image ? { ...line, media: line.image } : line)),
    billingInfo: { ...(inputs.billingAddress ? { address: inputs.billingAddress } : {}), ...contact },
    shippingInfo: {
      ...priced.shippingInfo,
      ...(inputs.shippingAddress
        ? { shippingDestination: { address: inputs.shippingAddress, ...contact } }
        : {}),
    },
    buyerNote: inputs.buyerNote,
    buyerInfo: {
      ...(row.member_id ? { memberId: row.member_id } : row.visitor_id ? { visitorId: row.visitor_id } : {}),
      email: inputs.email,
    },
    createdBy: row.member_id
      ? { memberId: row.member_id }
      : row.visitor_id
        ? { visitorId: row.visitor_id }
        : {},
    priceSummary: priced.priceSummary,
    ...(priced.calculationErrors ? { calculationErrors: priced.calculationErrors } : {}),
    appliedDiscounts: priced.appliedDiscounts,
    taxSummary: priced.taxSummary,
    currency: priced.currency,
    weightUnit: priced.weightUnit,
    taxIncludedInPrices: priced.taxIncludedInPrices,
    taxIncludedInPrice: priced.taxIncludedInPrices,
    membershipOptions: priced.membershipOptions,
    violations: priced.violations,
    completed: row.completed === 1,
    channelType: row.channel_type as ChannelType, // checked against the wire's channel types when made
    cartId: row.cart_id,
    createdDate: row.created_at,
    updatedDate: row.updated_at,
  };
}

/** How the create-order rules name the buyer's details: the API's checkout fields, or the page's form. */
export interface DetailNames {
  email: string;
  billingAddress: string;
  shippingAddress: string;
  carrierOption: string;
}

export const API_NAMES: DetailNames = {
  email: 'checkout.buyerInfo.email',
  billingAddress: 'checkout.billingInfo.address',
  shippingAddress: 'checkout.shippingInfo.shippingDestination.address',
  carrierOption: 'checkout.shippingInfo.selectedCarrierServiceOption.code',
};

export const PAGE_NAMES: DetailNames = {
  email: 'email',
  billingAddress: 'billingAddress',
  shippingAddress: 'shippingAddress',
  carrierOption: 'selectedShippingOption.code',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether the total asks for a payment. */
export const mustPay = (priced: Priced): boolean => new Big(priced.amounts.total).gt(0);

/**
 * Why a checkout cannot become an order yet, or undefined: no lines, a line that is not available,
 * missing buyer details (an email, a billing address when there is something to pay, a destination and
 * a carrier option when something ships), or a calculation error.
 */
export function orderBlocker(
  inputs: CheckoutInputs,
  priced: Priced,
  names: DetailNames,
): DomainError | undefined {
  if (inputs.lines.length === 0 || priced.lineItems.length === 0) {
    return applicationError(
      'FAILED_PRECONDITION',
      'EMPTY_CHECKOUT',
      'the checkout has no line items to order',
    );
  }
  const unavailable = priced.lineItems
    .filter(
      (line) => !['AVAILABLE', 'PARTIALLY_AVAILABLE'].includes(line.availability?.status ?? 'AVAILABLE'),
    )
    .map((line) => line.id as string);
  if (unavailable.length > 0) return outOfStock(unavailable);
  const problems: FieldViolation[] = [];
  if (!inputs.email) problems.push(violation(names.email, 'is required', 'REQUIRED_FIELD'));
  else if (!EMAIL.test(inputs.email))
    problems.push(violation(names.email, 'must be an email address', 'FORMAT'));
  if (mustPay(priced)) problems.push(...addressProblems(inputs.billingAddress, names.billingAddress));
  if (priced.shippable) {
    const selected = priced.shippingInfo.selectedCarrierServiceOption;
    const pickup = selected?.logistics?.pickupDetails !== undefined;
    if (!pickup) problems.push(...addressProblems(inputs.shippingAddress, names.shippingAddress));
    // the option pricing selected (the buyer's, else the cheapest delivery) is the one the checkout shows
    if (!selected?.code) {
      problems.push(violation(names.carrierOption, 'choose how the order is delivered', 'REQUIRED_FIELD'));
    }
  }
  if (problems.length > 0) return invalidArgument(problems);
  const errors = Object.entries(priced.calculationErrors ?? {}).filter(
    ([, value]) => value !== undefined && value !== null,
  );
  if (errors.length > 0) {
    const [kind, detail] = errors[0]!;
    const { applicationError: refusal, validationError } = detail as CalculationErrorDetails;
    const violated = validationError?.fieldViolations?.[0];
    const described =
      refusal?.description ?? (violated ? `${violated.field} ${violated.description}` : undefined);
    return applicationError(
      'FAILED_PRECONDITION',
      'CALCULATION_ERRORS',
      `the checkout cannot be ordered until its ${kind} is resolved${described ? `: ${described}` : ''}`,
      { calculationErrors: priced.calculationErrors },
    );
  }
  return undefined;
}

function addressProblems(address: Address | null, field: string): FieldViolation[] {
  if (!address) return [violation(field, 'is required', 'REQUIRED_FIELD')];
  const problems: FieldViolation[] = [];
  if (!address.country) problems.push(violation(`${field}.country`, 'is required', 'REQUIRED_FIELD'));
  if (!address.city) problems.push(violation(`${field}.city`, 'is required', 'REQUIRED_FIELD'));
  if (!address.addressLine && !address.streetAddress?.name) {
    problems.push(violation(`${field}.addressLine`, 'is required', 'REQUIRED_FIELD'));
  }
  return problems;
}

/** Lines the store cannot sell now (in the wanted quantity). */
export function outOfStock(lineItemIds: string[]): DomainError {
  return applicationError(
    'FAILED_PRECONDITION',
    'OUT_OF_STOCK',
    lineItemIds.length === 1
      ? 'one of the items is no longer available in the quantity ordered'
      : 'some items are no longer available in the quantities ordered',
    { lineItemIds },
  );
}
