/** Events the store announces (point 4) and the actors behind them (point 6). */

export const EVENT_NAMES = [
  'cart.created',
  'cart.updated',
  'cart.deleted',
  'checkout.created',
  'checkout.updated',
  'checkout.completed',
  'checkout_settings.updated',
  'checkout_template.created',
  'checkout_template.updated',
  'checkout_template.deleted',
  'checkout_template.used',
  'fulfillments.updated',
  'discount_rule.created',
  'discount_rule.updated',
  'discount_rule.deleted',
  'subscription_contract.created',
  'subscription_contract.updated',
  'subscription_contract.deleted',
  'back_in_stock_request.created',
  'back_in_stock_request.updated',
  'back_in_stock_request.deleted',
  'abandoned_checkout.recovered',
  'order.created',
  'order.updated',
  'order.approved',
  'order.canceled',
  'orders_settings.updated',
  'shipping_option.created',
  'shipping_option.updated',
  'shipping_option.deleted',
  'shippo_configuration.created',
  'shippo_configuration.updated',
  'shippo_configuration.deleted',
  'member.created',
  'member.updated',
  'member.deleted',
  'member_report.created',
  'member_report.deleted',
  'badge.created',
  'badge.updated',
  'badge.deleted',
  'badge.assigned',
  'badge.unassigned',
  'product.created',
  'product.updated',
  'product.deleted',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'variant.created',
  'variant.updated',
  'variant.deleted',
  'brand_v3.created',
  'brand_v3.updated',
  'brand_v3.deleted',
  'customization_v3.created',
  'customization_v3.updated',
  'customization_v3.deleted',
  'info_section_v3.created',
  'info_section_v3.updated',
  'info_section_v3.deleted',
  'inventory_item_v3.created',
  'inventory_item_v3.updated',
  'inventory_item_v3.deleted',
  'ribbon_v3.created',
  'ribbon_v3.updated',
  'ribbon_v3.deleted',
  'redirect_session.created',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Who caused an event. `WIX_USER` is the hosted platform's name for a platform (dashboard) user. */
export const ACTOR_IDENTITY_TYPES = ['UNKNOWN', 'ANONYMOUS_VISITOR', 'MEMBER', 'WIX_USER', 'APP'] as const;
export type ActorIdentityType = (typeof ACTOR_IDENTITY_TYPES)[number];

/** The other actor list of point 6 (abandoned-checkout activities and the like). */
export const ACTOR_ROLES = ['ADMIN', 'MEMBER', 'VISITOR', 'CONTACT'] as const;
export type ActorRole = (typeof ACTOR_ROLES)[number];

export interface EventIdentity {
  identityType?: ActorIdentityType;
  anonymousVisitorId?: string;
  memberId?: string;
  wixUserId?: string;
  appId?: string;
}

/** One announced event: what happened to which entity, when, and by whom. */
export interface DomainEvent<T = unknown> {
  id: string;
  name: EventName;
  entityId: string;
  eventTime: Date;
  identity?: EventIdentity;
  entity?: T;
}
