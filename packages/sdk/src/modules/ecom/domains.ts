import { type DomainMapping, everyHost } from '../../transport/domains.ts';
import type { HttpMethod, Transport } from '../../transport/http.ts';

/**
 * Domain mappings of the ecom modules (wire contract, Hosts): each service path `/v1/...` becomes
 * `/ecom/v1/...` on the hosted API host and on Cartwheel's platform, which serves the hosted paths.
 */
export const CURRENT_CART = everyHost(['/v1/carts', '/ecom/v1/carts']);
export const CHECKOUTS = everyHost(['/v1/checkouts', '/ecom/v1/checkouts']);
export const ORDERS = everyHost(
  ['/v1/orders', '/ecom/v1/orders'],
  ['/v1/bulk/orders', '/ecom/v1/bulk/orders'],
);
export const PAYMENTS_COLLECTOR = everyHost(['/v1/payments-collector', '/ecom/v1/payments-collector']);
export const ORDER_TRANSACTIONS = everyHost(
  ['/v1/payments', '/ecom/v1/payments'],
  ['/v1/bulk/payments', '/ecom/v1/bulk/payments'],
);

export const ORDER_FULFILLMENTS = everyHost(['/v1/fulfillments', '/ecom/v1/fulfillments']);

/** One call of an ecom service: its method, service path, trace name, and body or query. */
export type EcomCall = <T>(
  transport: Transport,
  method: HttpMethod,
  path: string,
  traceName: string,
  body?: unknown,
  params?: Record<string, unknown>,
) => Promise<T>;

/**
 * The calls of one ecom service, sharing its mapping and its trace's service and entity
 * (`cartwheel.ecom.checkout.v1.CheckoutService.GetCheckout`, entity `checkout`): each method then
 * names only what is its own, which keeps the modules small in a browser bundle.
 */
export function ecomService(mapping: DomainMapping, service: string, entity: string): EcomCall {
  return (transport, method, path, traceName, body, params) =>
    transport.request({
      method,
      path,
      mapping,
      body,
      params,
      trace: { package: '@cartwheel/sdk', method: `cartwheel.ecom.${service}.${traceName}`, entity },
    });
}

/**
 * The named fields of a caller's options, in the order named: what the hosted client sends of them.
 * Anything else the object holds stays off the wire; absent fields are left out of the JSON.
 */
export function pick(options: object | null | undefined, names: readonly string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of names) fields[name] = (options as Record<string, unknown> | null | undefined)?.[name];
  return fields;
}
