import type { Mailer } from '../email/mailer.ts';
import type { Subscriber } from '../events/bus.ts';
import { type ConfirmedOrder, orderConfirmation } from './confirmation.ts';
import type { OrderOptions, OrderService } from './service.ts';

/**
 * A guest's orders join the member who may have them (OrderService.adoptGuestOrders), told by the
 * identity domain's events: once the member's email is verified, every order bought with it; at a
 * sign-in before that, only those the signing-in visitor bought with it (they could read them already).
 * Registering someone else's email proves nothing, so it brings none of their orders; an app's sign-on
 * that merges the existing contact vouches for the email, and brings them all. Adopting is
 * idempotent: an event handled twice joins nothing more.
 */
export function guestOrderAdoption(orders: Pick<OrderService, 'adoptGuestOrders'>): Subscriber {
  return {
    name: 'order-adoption',
    wants: { identity: ['email_verified', 'signed_in', 'contact_merged'] },
    async handle(event) {
      const { email, emailVerified, visitorId } = event.payload as {
        email: string;
        emailVerified?: boolean;
        visitorId?: string | null;
      };
      if (event.slug === 'email_verified' || event.slug === 'contact_merged' || emailVerified)
        await orders.adoptGuestOrders(event.entityId, email);
      else if (visitorId) await orders.adoptGuestOrders(event.entityId, email, visitorId);
    },
  };
}

/**
 * The buyer's order confirmation, queued when an order is approved (placed and paid, or recorded), unless
 * the order was recorded with `notifyBuyer: false`. Keyed by the event: a retried event mails no second one.
 */
export function orderConfirmationEmails(
  mailer: Pick<Mailer, 'queueForEvent'>,
  store: Pick<OrderOptions, 'publicUrl' | 'storeName'>,
): Subscriber {
  return {
    name: 'order-confirmation-email',
    wants: { order: ['approved'] },
    async handle(event) {
      const { entity: order, notifyBuyer } = event.payload as {
        entity: ConfirmedOrder;
        notifyBuyer?: boolean;
      };
      if (notifyBuyer === false) return;
      const confirmation = orderConfirmation(order, {
        storeName: store.storeName,
        orderUrl: `${store.publicUrl}/account/orders/${encodeURIComponent(order.id)}`,
      });
      if (confirmation) await mailer.queueForEvent(event.id, confirmation);
    },
  };
}
