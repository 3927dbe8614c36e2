import type { Transaction } from 'kysely';
import type { CartService } from '../carts/service.ts';
import type { CheckoutInputs } from '../checkouts/document.ts';
import type { CheckoutService } from '../checkouts/service.ts';
import type { CheckoutRow } from '../checkouts/tables.ts';
import type { Tables } from '../db/tables.ts';

/** What completing a paid checkout touches: its cart and the checkout itself. */
export interface CompletionDependencies {
  carts: Pick<CartService, 'removeBought'>;
  checkouts: Pick<CheckoutService, 'completed'>;
}

/**
 * Paid order to cart, in the transaction that approves the order: what the order bought leaves the
 * checkout's cart (the cart's event first, as the shopper's cart changed before the checkout closed),
 * then the checkout is completed with its order.
 */
export async function completeCheckout(
  domains: CompletionDependencies,
  trx: Transaction<Tables>,
  row: CheckoutRow,
  orderId: string,
  now: Date,
): Promise<void> {
  if (row.cart_id) {
    const bought = (JSON.parse(row.inputs) as CheckoutInputs).lines;
    await domains.carts.removeBought(trx, row.cart_id, bought);
  }
  await domains.checkouts.completed(trx, row, orderId, now);
}
