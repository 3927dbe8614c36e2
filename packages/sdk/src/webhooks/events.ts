/**
 * The events an app receives (point 4), by the hosted platform's event type names, each with the entity
 * its body holds: what `on(type, handler)` hands the handler, typed.
 */

import type { StoreCheckoutTemplate } from '../modules/cartwheel/store-admin.ts';
import type { Cart } from '../types/ecom-cart.ts';
import type { Checkout, CheckoutSettings } from '../types/ecom-checkout.ts';
import type { DiscountRule } from '../types/ecom-discounts.ts';
import type { Fulfillment } from '../types/ecom-fulfillments.ts';
import type { Order } from '../types/ecom-orders.ts';
import type { OrderTransactions } from '../types/ecom-payments.ts';
import type { AbandonedCheckout, BackInStockRequest } from '../types/ecom-recovery.ts';
import type { SubscriptionContract } from '../types/ecom-subscriptions.ts';
import type { EventIdentity } from '../types/events.ts';
import type { Member } from '../types/members.ts';
import type { RedirectSession } from '../types/redirects.ts';

/** Domain events: the entity as it is after the change (`created`, `updated`) or its id (`deleted`). */
export interface DomainEventEntities {
  'wix.ecom.v1.cart_created': Cart;
  'wix.ecom.v1.cart_updated': Cart;
  'wix.ecom.v1.cart_deleted': Cart;
  'wix.ecom.v1.checkout_created': Checkout;
  'wix.ecom.v1.checkout_updated': Checkout;
  'wix.ecom.v1.checkout_completed': Checkout;
  'wix.ecom.v1.checkout_settings_updated': CheckoutSettings;
  'wix.ecom.v1.order_created': Order;
  'wix.ecom.v1.order_updated': Order;
  'wix.ecom.v1.order_approved': Order;
  'wix.ecom.v1.order_canceled': Order;
  'wix.ecom.v1.order_transactions_updated': OrderTransactions;
  'wix.ecom.v1.fulfillments_updated': { orderId?: string; fulfillments?: Fulfillment[] };
  'wix.ecom.discounts.v1.discount_rule_created': DiscountRule;
  'wix.ecom.discounts.v1.discount_rule_updated': DiscountRule;
  'wix.ecom.discounts.v1.discount_rule_deleted': DiscountRule;
  'wix.ecom.v1.checkout_template_created': StoreCheckoutTemplate;
  'wix.ecom.v1.checkout_template_updated': StoreCheckoutTemplate;
  'wix.ecom.v1.checkout_template_deleted': StoreCheckoutTemplate;
  /** The hosted `CheckoutTemplateUsed`: the template and the checkout made of it. */
  'wix.ecom.v1.checkout_template_used': {
    checkoutTemplate?: StoreCheckoutTemplate;
    checkout?: { id?: string };
  };
  'wix.ecom.v1.abandoned_checkout_created': AbandonedCheckout;
  'wix.ecom.v1.abandoned_checkout_deleted': AbandonedCheckout;
  /** The hosted `AbandonedCheckoutRecovered`. */
  'wix.ecom.v1.abandoned_checkout_recovered': { abandonedCheckout?: AbandonedCheckout };
  'wix.ecom.subscription_contracts.v1.subscription_contract_created': SubscriptionContract;
  'wix.ecom.subscription_contracts.v1.subscription_contract_updated': SubscriptionContract;
  'wix.ecom.v1.back_in_stock_notification_request_created': BackInStockRequest;
  /** Its status moved: PROCESSING, NOTIFICATION_SENT or FAILED. */
  'wix.ecom.v1.back_in_stock_notification_request_updated': BackInStockRequest;
  'wix.ecom.v1.back_in_stock_notification_request_deleted': BackInStockRequest;
  'wix.members.v1.member_created': Member;
  'wix.members.v1.member_updated': Member;
  'wix.members.v1.member_deleted': Member;
  'wix.headless.v1.redirect_session_created': RedirectSession;
}

/** The v1 catalog's older plain events: their body is the data itself, not a domain event. */
export interface PlainEventData {
  'com.wix.ecommerce.catalog.api.v1.ProductCreated': {
    productId: string;
    name?: string;
    [key: string]: unknown;
  };
  'com.wix.ecommerce.catalog.api.v1.ProductChanged': { productId: string; changedFields?: string[] };
  'com.wix.ecommerce.catalog.api.v1.ProductDeleted': { productId: string };
  'com.wix.ecommerce.catalog.api.v1.CollectionCreated': { collectionId: string; name?: string };
  'com.wix.ecommerce.catalog.api.v1.CollectionChanged': { collectionId: string; changedFields?: string[] };
  'com.wix.ecommerce.catalog.api.v1.CollectionDeleted': { collectionId: string };
  'com.wix.ecommerce.catalog.api.v1.VariantsChanged': { productId: string; variants?: unknown[] };
}

export type WebhookEventType = keyof DomainEventEntities | keyof PlainEventData;

/** What every handler is told beside the body: the event's envelope (the hosted client's `metadata`). */
export interface EventMetadata {
  instanceId?: string;
  identity?: EventIdentity;
  /** Domain events only: */
  id?: string;
  entityFqdn?: string;
  slug?: string;
  entityId?: string;
  /** When it happened. */
  eventTime?: Date;
  /** 1, 2, 3... per entity with no gap: keep the last one seen and drop an older one that arrives late. */
  entityEventSequence?: string;
  triggeredByAnonymizeRequest?: boolean;
}

/** What a handler of `Type` receives, as the hosted client's handlers receive it. */
export type WebhookEvent<Type extends WebhookEventType> = Type extends keyof DomainEventEntities
  ? {
      /** The entity after the change; for `deleted`, the entity as it was when the platform sends it. */
      entity: DomainEventEntities[Type];
      /** `updated` only: the fields that changed, when the platform says. */
      modifiedFields?: Record<string, unknown>;
      /** Action events (`approved`, `canceled`, `completed` may carry one): the action's body. */
      data?: unknown;
      metadata: EventMetadata;
    }
  : Type extends keyof PlainEventData
    ? { data: PlainEventData[Type]; metadata: EventMetadata }
    : never;

/** The hosted platform's domain event, as the JWT's `data.data` holds it (JSON text). */
export interface DomainEventBody {
  id: string;
  entityFqdn: string;
  slug: string;
  entityId: string;
  eventTime: string;
  entityEventSequence?: string;
  triggeredByAnonymizeRequest?: boolean;
  createdEvent?: { entity?: unknown };
  updatedEvent?: { currentEntity?: unknown; modifiedFields?: Record<string, unknown> };
  deletedEvent?: { deletedEntity?: unknown };
  actionEvent?: { body?: unknown };
}

/**
 * A Standard Webhooks delivery's JSON body (the per-endpoint alternative to the signed JWT): the same
 * event, as an object instead of JSON text in a token.
 */
export interface StandardWebhookBody {
  /** The event type (`wix.ecom.v1.order_created`). */
  type: string;
  /** ISO 8601: when the event happened. */
  timestamp: string;
  instanceId?: string;
  identity?: EventIdentity;
  /** A domain event (`DomainEventBody`) or a plain event's data. */
  data: unknown;
}
