import type { ShippingInfo } from '@cartwheel/sdk';
import { useState } from 'react';

/** The part of an address shipping and tax depend on, as the cart page's estimate asks for it. */
export interface EstimateAddress {
  country: string;
  /** ISO 3166-2 (`US-NY`). */
  subdivision?: string;
  postalCode?: string;
}

const STORAGE_KEY = 'cartwheel.cart.estimate-address';

function stored(): EstimateAddress | undefined {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    const address = text ? (JSON.parse(text) as EstimateAddress) : undefined;
    return address?.country ? address : undefined;
  } catch {
    return undefined;
  }
}

/** The address last estimated for, kept in this browser so the estimate is there on the next visit. */
export function useEstimateAddress(): [EstimateAddress | undefined, (address: EstimateAddress) => void] {
  const [address, setAddress] = useState(stored);
  return [
    address,
    (next) => {
      setAddress(next);
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // private browsing: the estimate lasts for this page only
      }
    },
  ];
}

/**
 * The shipping option the estimate priced: the one the platform selected, else the cheapest offered
 * (costs compared, never added: they are the platform's amounts).
 */
export function cheapestShippingTitle(shipping: ShippingInfo | undefined): string | undefined {
  const selected = shipping?.selectedCarrierServiceOption;
  if (selected?.title) return selected.title;
  const options = (shipping?.carrierServiceOptions ?? []).flatMap((carrier) => carrier.shippingOptions ?? []);
  const cost = (option: (typeof options)[number]) =>
    Number(option.cost?.price?.amount ?? Number.POSITIVE_INFINITY);
  return options.reduce<(typeof options)[number] | undefined>(
    (cheapest, option) => (!cheapest || cost(option) < cost(cheapest) ? option : cheapest),
    undefined,
  )?.title;
}
