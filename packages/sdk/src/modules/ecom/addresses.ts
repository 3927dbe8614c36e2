import type { Address, AddressLocation } from '../../types/common.ts';

/**
 * An address as a caller gives it: in the wire's names (`addressLine`, `formattedAddress`, `geocode`),
 * or in the hosted client's own (`addressLine1`, `formatted`, `location`), so code written against the
 * hosted client keeps its address lines.
 */
export interface AddressInput extends Address {
  /** A note for the courier. */
  hint?: string | null;
  addressLine1?: string | null;
  formatted?: string | null;
  location?: AddressLocation;
}

/** Where a checkout keeps addresses (the hosted client rewrites each of them on the way out). */
export const CHECKOUT_ADDRESSES = [
  'billingInfo.address',
  'shippingInfo.shippingDestination.address',
  'shippingInfo.selectedCarrierServiceOption.logistics.pickupDetails.address',
  'shippingInfo.carrierServiceOptions.shippingOptions.logistics.pickupDetails.address',
];

/** Where an order keeps addresses. */
export const ORDER_ADDRESSES = [
  'billingInfo.address',
  'shippingInfo.logistics.shippingDestination.address',
  'shippingInfo.logistics.pickupDetails.address',
  'recipientInfo.address',
];

/**
 * An address as the hosted client sends it: only the fields it knows, in its order. Unknown fields
 * (`countryFullname`, read from an answer) are left out, as the hosted client leaves them out.
 */
export function addressOnWire(address: AddressInput | null | undefined): Address | null | undefined {
  // a null street address stays null, as the hosted client keeps it
  const street = address?.streetAddress as
    | (Address['streetAddress'] & { formattedAddressLine?: string })
    | undefined;
  return (
    address &&
    ({
      city: address.city,
      hint: address.hint,
      subdivision: address.subdivision,
      country: address.country,
      postalCode: address.postalCode,
      formattedAddress: address.formattedAddress ?? address.formatted,
      geocode: address.geocode ?? address.location,
      addressLine: address.addressLine ?? address.addressLine1,
      addressLine2: address.addressLine2,
      streetAddress: street && {
        name: street.name,
        number: street.number,
        apt: street.apt,
        formattedAddressLine: street.formattedAddressLine,
      },
    } as Address)
  );
}

/** `value` with every address at `paths` (dotted, arrays walked) as the wire carries it. */
export function addressesOnWire<T>(value: T, paths: string[]): T {
  return paths.reduce((out, path) => changeAt(out, path.split('.'), addressOnWire), value);
}

/**
 * `value` with `change` applied to the field at `path`, walking arrays on the way; absent fields stay
 * absent and the caller's objects are copied, never changed. Keys keep their places.
 */
export function changeAt<T>(value: T, path: string[], change: (field: any) => unknown): T {
  if (Array.isArray(value)) return value.map((item) => changeAt(item, path, change)) as T;
  const [key = '', ...rest] = path;
  if (value === null || typeof value !== 'object' || !(key in value)) return value;
  const field = (value as Record<string, unknown>)[key];
  return { ...value, [key]: rest.length > 0 ? changeAt(field, rest, change) : change(field) };
}

/** A field mask as the wire carries it: the field paths joined by commas. */
export function fieldMaskOnWire(mask: string[] | string | null | undefined): string | null | undefined {
  return Array.isArray(mask) ? mask.join(',') : mask;
}
