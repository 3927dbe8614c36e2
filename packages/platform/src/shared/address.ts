import type { Address } from '@cartwheel/sdk';

/** An address as a caller sent it, with the hosted client's `addressLine1` read as `addressLine`. */
export function normalizeAddress(
  address: (Address & { addressLine1?: string | null }) | null | undefined,
): Address | null {
  if (!address) return null;
  const { addressLine1, ...rest } = address;
  return { ...rest, ...(rest.addressLine ? {} : addressLine1 ? { addressLine: addressLine1 } : {}) };
}
