import type { Address, AddressWithContact, Checkout, FieldViolation } from '@cartwheel/sdk';
import type { CheckoutUpdate } from './api.ts';

/** The country a new address starts with. */
const DEFAULT_COUNTRY = 'US';

/** What the shopper typed into the checkout form; the wire's shapes are made from it on the way out. */

export interface AddressForm {
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  postalCode: string;
  country: string;
  /** `US-NY` for a US state, else whatever region the shopper typed. */
  state: string;
}

export type AddressField = keyof AddressForm;

export interface BuyerForm {
  email: string;
  shipping: AddressForm;
  billingSameAsShipping: boolean;
  billing: AddressForm;
}

export interface CardForm {
  number: string;
  expiry: string;
  cvc: string;
}

export const EMPTY_ADDRESS: AddressForm = {
  firstName: '',
  lastName: '',
  address: '',
  city: '',
  postalCode: '',
  country: DEFAULT_COUNTRY,
  state: '',
};

export const EMPTY_CARD: CardForm = { number: '', expiry: '', cvc: '' };

/** The form as the checkout last stored it: what the shopper entered before a reload stays filled. */
export function buyerFormOf(checkout: Checkout): BuyerForm {
  const shipping = addressFormOf(checkout.shippingInfo?.shippingDestination);
  // a member's new checkout holds their name before any address: it fills the name fields
  const named = checkout.billingInfo?.contactDetails;
  if (!shipping.firstName && !shipping.lastName && named) {
    shipping.firstName = named.firstName ?? '';
    shipping.lastName = named.lastName ?? '';
  }
  const billing = addressFormOf(checkout.billingInfo);
  const hasBilling = Boolean(
    checkout.billingInfo?.address?.addressLine || checkout.billingInfo?.address?.city,
  );
  return {
    email: checkout.buyerInfo?.email ?? '',
    shipping,
    billingSameAsShipping: !hasBilling || sameAddress(shipping, billing),
    billing: hasBilling ? billing : { ...EMPTY_ADDRESS },
  };
}

function addressFormOf(stored: AddressWithContact | undefined): AddressForm {
  const address = stored?.address;
  const street = address?.streetAddress;
  const streetLine = [street?.number, street?.name].filter(Boolean).join(' ');
  return {
    firstName: stored?.contactDetails?.firstName ?? '',
    lastName: stored?.contactDetails?.lastName ?? '',
    address: address?.addressLine ?? (streetLine || ''),
    city: address?.city ?? '',
    postalCode: address?.postalCode ?? '',
    country: address?.country || DEFAULT_COUNTRY,
    state: address?.subdivision ?? '',
  };
}

function sameAddress(a: AddressForm, b: AddressForm): boolean {
  return (Object.keys(a) as AddressField[]).every((key) => a[key].trim() === b[key].trim());
}

/** An address on the wire: only what was typed, so a half-filled form is not refused for its blanks. */
export function addressInputOf(form: AddressForm): Address {
  const input: Address = { country: form.country };
  const put = (key: 'addressLine' | 'city' | 'postalCode' | 'subdivision', value: string) => {
    if (value.trim()) input[key] = value.trim();
  };
  put('addressLine', form.address);
  put('city', form.city);
  put('postalCode', form.postalCode);
  // a US state only counts while the country is still the US
  if (form.country !== 'US' || form.state.startsWith('US-')) put('subdivision', form.state);
  return input;
}

/**
 * The buyer's details as one `/update` body (the delivery method and coupon are added by their callers).
 * The checkout keeps one name for the buyer: the delivery address's fields hold it. For a pickup the
 * billing address is the one the shopper fills in (there is nothing to deliver to), so it is sent on
 * its own; whatever delivery address was typed is kept, so the delivery methods for it stay offered.
 */
export function buyerUpdateOf(form: BuyerForm, pickup = false): CheckoutUpdate {
  const email = form.email.trim();
  const firstName = form.shipping.firstName.trim();
  const lastName = form.shipping.lastName.trim();
  const sameAsShipping = !pickup && form.billingSameAsShipping;
  return {
    ...(email ? { email } : {}),
    ...(firstName || lastName
      ? { contactDetails: { ...(firstName ? { firstName } : {}), ...(lastName ? { lastName } : {}) } }
      : {}),
    shippingAddress: addressInputOf(form.shipping),
    billingSameAsShipping: sameAsShipping,
    ...(sameAsShipping ? {} : { billingAddress: addressInputOf(form.billing) }),
  };
}

/**
 * Whether the delivery method `code` (else the checkout's selected one) is a pickup the shopper chose:
 * nothing is delivered. A pickup the platform fell back to (nothing is delivered to the address typed)
 * does not count: the shopper is still filling in a delivery address.
 */
export function isPickup(checkout: Checkout, code?: string): boolean {
  const info = checkout.shippingInfo;
  const selected = info?.selectedCarrierServiceOption;
  if (code === undefined) {
    return selected?.requestedShippingOption === true && selected.logistics?.pickupDetails != null;
  }
  const option = (info?.carrierServiceOptions ?? [])
    .flatMap((carrier) => carrier.shippingOptions ?? [])
    .find((candidate) => candidate.code === code);
  return option?.logistics?.pickupDetails != null;
}

/** Whether the checkout's total is more than nothing: a card is charged, and it needs a billing address. */
export function hasSomethingToPay(checkout: Checkout): boolean {
  const amount = checkout.priceSummary?.total?.amount;
  return amount === undefined || !/^-?0*(\.0*)?$/.test(amount);
}

/** The card as the gateway reads it: the number without the spaces the shopper may type. */
export function cardInputOf(card: CardForm) {
  return { number: card.number.replace(/[\s-]/g, ''), expiry: card.expiry.trim(), cvc: card.cvc.trim() };
}

/** `4242424242424242` → `4242 4242 4242 4242` as the shopper types. */
export function groupCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** `1230` → `12/30`; the slash comes by itself once the month is typed. */
export function formatExpiry(value: string, previous: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  // deleting the slash deletes the month's last digit, not nothing
  if (value.length < previous.length && previous.endsWith('/') && !value.includes('/')) {
    return digits.slice(0, 1);
  }
  if (digits.length >= 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return digits;
}

/** A place in the form a message can be shown under. */
export type FieldKey =
  | 'email'
  | `shipping.${AddressField}`
  | `billing.${AddressField}`
  | 'deliveryMethod'
  | 'card.number'
  | 'card.expiry'
  | 'card.cvc';

export type FieldErrors = Partial<Record<FieldKey, string>>;

const ADDRESS_FIELD_OF: Record<string, AddressField> = {
  firstName: 'firstName',
  lastName: 'lastName',
  addressLine: 'address',
  addressLine1: 'address',
  streetAddress: 'address',
  city: 'city',
  postalCode: 'postalCode',
  country: 'country',
  subdivision: 'state',
};

/** Which field of the form a violation the platform reported (`shippingAddress.city`) is about. */
export function fieldKeyOf(wireField: string): FieldKey | undefined {
  const parts = wireField.split('.');
  const [head] = parts;
  if (head === 'email' || wireField === 'buyerInfo.email') return 'email';
  if (wireField === 'card.number' || wireField === 'card.expiry' || wireField === 'card.cvc')
    return wireField;
  if (head === 'selectedShippingOption' || head === 'shippingOption') return 'deliveryMethod';
  if (head === 'contactDetails') {
    const field = ADDRESS_FIELD_OF[parts[1] ?? ''];
    return field === 'firstName' || field === 'lastName' ? `shipping.${field}` : undefined;
  }
  const side = head === 'shippingAddress' ? 'shipping' : head === 'billingAddress' ? 'billing' : undefined;
  if (!side) return undefined;
  // `shippingAddress.contactDetails.firstName`, `shippingAddress.streetAddress.name`: the first part we know
  for (const part of parts.slice(1)) {
    const field = ADDRESS_FIELD_OF[part];
    if (field) return `${side}.${field}`;
  }
  // the whole address is missing: its first line is where to start
  return `${side}.address`;
}

/** The messages less those of `keys` (fields the shopper just changed). */
export function withoutErrors(errors: FieldErrors, keys: FieldKey[]): FieldErrors {
  if (!keys.some((key) => key in errors)) return errors;
  const kept = { ...errors };
  for (const key of keys) delete kept[key];
  return kept;
}

/** With "Same as delivery address" on, a billing address problem is the delivery address's. */
export function onShownFields(errors: FieldErrors, billingSameAsShipping: boolean): FieldErrors {
  if (!billingSameAsShipping) return errors;
  const shown: FieldErrors = {};
  for (const [key, message] of Object.entries(errors) as Array<[FieldKey, string]>) {
    const target = key.startsWith('billing.') ? (key.replace('billing.', 'shipping.') as FieldKey) : key;
    shown[target] ??= message;
  }
  return shown;
}

const FIELD_NAMES: Record<AddressField | 'email' | 'number' | 'expiry' | 'cvc', string> = {
  email: 'email',
  firstName: 'first name',
  lastName: 'last name',
  address: 'address',
  city: 'city',
  postalCode: 'postal code',
  country: 'country',
  state: 'state',
  number: 'card number',
  expiry: 'expiry date',
  cvc: 'security code (CVC)',
};

/** A violation said as the shopper reads it, under its field. */
export function violationMessage(key: FieldKey, violation: FieldViolation): string {
  if (key === 'deliveryMethod') return 'Choose a delivery method.';
  const name = FIELD_NAMES[key.split('.').at(-1) as keyof typeof FIELD_NAMES] ?? 'value';
  if (violation.violatedRule === 'REQUIRED_FIELD') return `Enter your ${name}.`;
  if (key === 'card.expiry') return 'Enter the expiry date as MM/YY, in the future.';
  if (key === 'card.number') return 'Check the card number: it is not a valid card.';
  if (key === 'card.cvc') return 'Enter the 3 or 4 digits on the back of the card.';
  if (key === 'email') return 'Enter a valid email address.';
  return `Check the ${name}: ${violation.description}.`;
}

/** The platform's violations, each under its field; those the form has no place for are returned apart. */
export function fieldErrorsOf(violations: FieldViolation[]): {
  errors: FieldErrors;
  unplaced: FieldViolation[];
} {
  const errors: FieldErrors = {};
  const unplaced: FieldViolation[] = [];
  for (const violation of violations) {
    const key = fieldKeyOf(violation.field);
    if (!key) unplaced.push(violation);
    else errors[key] ??= violationMessage(key, violation);
  }
  return { errors, unplaced };
}

/**
 * What must be filled before paying; the platform checks the rest (postal codes vary by country). A
 * pickup needs no delivery address, only the billing address when there is something to pay.
 */
export function missingFields(
  form: BuyerForm,
  /** The page's own card fields; undefined where the provider's own fields take the card. */
  card: CardForm | undefined,
  checkout: Checkout,
  pickup = false,
): FieldErrors {
  const errors: FieldErrors = {};
  const need = (key: FieldKey, value: string, message: string) => {
    if (!value.trim()) errors[key] = message;
  };
  need('email', form.email, 'Enter your email.');
  const sides: Array<['shipping' | 'billing', AddressForm]> = [];
  if (pickup) {
    if (hasSomethingToPay(checkout)) sides.push(['billing', form.billing]);
  } else {
    sides.push(['shipping', form.shipping]);
    if (!form.billingSameAsShipping) sides.push(['billing', form.billing]);
  }
  need('shipping.firstName', form.shipping.firstName, 'Enter your first name.');
  need('shipping.lastName', form.shipping.lastName, 'Enter your last name.');
  for (const [side, address] of sides) {
    need(`${side}.address`, address.address, 'Enter your address.');
    need(`${side}.city`, address.city, 'Enter your city.');
    if (address.country === 'US') need(`${side}.state`, address.state, 'Choose your state.');
  }
  const offered = checkout.shippingInfo?.carrierServiceOptions?.some(
    (carrier) => carrier.shippingOptions?.length,
  );
  if (offered && !checkout.shippingInfo?.selectedCarrierServiceOption?.code) {
    errors.deliveryMethod = 'Choose a delivery method.';
  }
  if (card) {
    need('card.number', card.number, 'Enter your card number.');
    need('card.expiry', card.expiry, 'Enter the expiry date as MM/YY.');
    need('card.cvc', card.cvc, 'Enter the security code (CVC).');
  }
  return errors;
}
