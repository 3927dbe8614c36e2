import { everyHost } from '../../transport/domains.ts';
import type { RequestSpec } from '../../transport/http.ts';

/**
 * The current cart (wire contract, Hosts): `/v1/carts/current` becomes `/ecom/v1/carts/current` on the
 * hosted API host and on Cartwheel's platform, which serves the hosted paths.
 */
export const CURRENT_CART = everyHost(['/v1/carts', '/ecom/v1/carts']);

/** Tracing of one cart call, named like the hosted service (`cartwheel.ecom.cart.v1.CurrentCartService.X`). */
export function currentCartTrace(method: string): RequestSpec['trace'] {
  return {
    package: '@cartwheel/sdk',
    method: `cartwheel.ecom.cart.v1.CurrentCartService.${method}`,
    entity: 'cart',
  };
}
