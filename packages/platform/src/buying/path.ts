import type { ChannelType } from '@cartwheel/sdk';
import type { CreateCheckoutBody } from '../carts/schemas.ts';
import type { CartOwner, CartService } from '../carts/service.ts';
import { API_NAMES, type CheckoutInputs, mustPay, orderBlocker } from '../checkouts/document.ts';
import { completedError, orderSource } from '../checkouts/service.ts';
import type { OrderService } from '../orders/service.ts';
import type { Priced } from '../pricing/contract.ts';
import type { Principal } from '../shared/principal.ts';
import { completeCheckout } from './complete.ts';
import { OrderPlacement, type PlacementDependencies, preorderedByLine } from './placing.ts';

/** What the buying path joins: the cart, its checkout, the order, the payment and the buyer. */
export interface BuyingDependencies extends PlacementDependencies {
  carts: Pick<CartService, 'toCheckOut' | 'rememberCheckout' | 'removeBought'>;
  orders: Pick<
    OrderService,
    | 'createFromCheckout'
    | 'createInitialized'
    | 'approve'
    | 'waitingForPayment'
    | 'statusOf'
    | 'notePreorders'
  >;
}

/**
 * The buying path's steps that cross domains (docs/buying-path.md): cart to checkout, checkout to order
 * (create-order here, the hosted page's payment in `placement`), and the paid order back to its cart
 * (complete.ts). Each domain below knows only its own rules; the routes that run a step call this.
 */
export class BuyingPath {
  /** Paying for a checkout on the hosted page: attempts, charges, and settling lost answers. */
  readonly placement: OrderPlacement;

  constructor(private readonly domains: BuyingDependencies) {
    this.placement = new OrderPlacement(domains);
  }

  /** Cart to checkout: a checkout of the owner's cart as it is now, remembered on the cart. */
  async checkoutCart(owner: CartOwner, input: CreateCheckoutBody): Promise<{ checkoutId: string }> {
    const { carts, checkouts } = this.domains;
    const cart = await carts.toCheckOut(owner);
    const { checkoutId } = await checkouts.createFromCart({
      cartId: cart.id,
      owner: { visitorId: cart.visitorId, memberId: cart.memberId },
      lines: cart.lines,
      couponCode: cart.couponCode,
      merchantDiscounts: cart.merchantDiscounts,
      buyerNote: cart.buyerNote,
      channelType: (input.channelType as ChannelType | undefined) ?? 'WEB',
      email: input.email ?? null,
      shippingAddress: input.shippingAddress ?? cart.contactInfo?.address ?? null,
      billingAddress: input.billingAddress ?? null,
      selectedShippingOption: input.selectedShippingOption ?? cart.selectedShippingOption,
    });
    await carts.rememberCheckout(owner, cart.id, checkoutId);
    return { checkoutId };
  }

  /**
   * `create-order`: the checkout becomes an order. Nothing to pay: its stock is taken, the order
   * approved and the checkout completed at once. Otherwise the order waits `INITIALIZED` and `NOT_PAID`
   * for its payment, with a gateway order to pay it through, and holds no stock: paying it takes the
   * stock (placing.ts), as placing any order does, so an order nobody pays keeps nothing from other
   * buyers. Asking again answers the same order.
   */
  async createOrder(
    id: string,
    principal: Principal,
  ): Promise<{ orderId: string; paymentGatewayOrderId?: string }> {
    const { checkouts, orders } = this.domains;
    const contactId = await checkouts.contactIdOf(principal);
    return checkouts.inTransaction(async (trx) => {
      const row = await checkouts.lock(trx, id, principal);
      if (row.order_id) {
        const existing = await orders.statusOf(trx, row.order_id);
        if (existing)
          return {
            orderId: existing.id,
            ...(existing.status === 'INITIALIZED' ? { paymentGatewayOrderId: existing.id } : {}),
          };
      }
      if (row.completed === 1) throw completedError(id);
      // the hosted page is paying it: that payment's order is the one
      await checkouts.refuseWhilePaying(trx, row);
      const inputs = JSON.parse(row.inputs) as CheckoutInputs;
      const priced = JSON.parse(row.priced) as Priced;
      const blocker = orderBlocker(inputs, priced, API_NAMES);
      if (blocker) throw blocker;
      const paid = !mustPay(priced);
      const taken = paid ? await checkouts.takeStock(trx, inputs) : [];
      const now = new Date();
      const order = await orders.createFromCheckout(
        trx,
        orderSource(row, inputs, priced, contactId),
        paid,
        now,
      );
      await orders.notePreorders(trx, order.id, preorderedByLine(inputs, taken));
      await checkouts.attachOrder(trx, id, order.id, paid, now);
      if (paid) await completeCheckout(this.domains, trx, row, order.id, now);
      return { orderId: order.id, ...(paid ? {} : { paymentGatewayOrderId: order.id }) };
    });
  }
}
