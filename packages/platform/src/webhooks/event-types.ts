import { EVENT_ENTITIES, type EventEntity, type EventSlug, type RecordedEvent } from '../events/outbox.ts';
import type { EventActor } from '../shared/actor.ts';
import type { Permission } from '../shared/permissions.ts';

/**
 * The webhook event types an app may subscribe to, and how each is made from an outbox event: the
 * hosted platform's domain events (`${entityFqdn}_${slug}`, `wix.ecom.v1.order_created`) and the v1
 * catalog's older plain events (`com.wix.ecommerce.catalog.api.v1.ProductCreated`), whose body is the
 * data itself. A table, one line a type: the event types an outbox event announces are looked up, not
 * decided.
 */

/** What a delivery carries: the JWT's `data.eventType`, `data.data` and `data.identity` before they are text. */
export interface WebhookEvent {
  eventType: string;
  /** The hosted domain event, or a plain event's data. */
  data: Record<string, unknown>;
  identity: Record<string, unknown>;
}

type Shape = 'created' | 'updated' | 'deleted' | 'action';

interface DomainEventKind {
  entity: EventEntity;
  slug: EventSlug;
  shape: Shape;
  /** The entity after the change, from the outbox payload (its `entity` when absent). */
  entityIn?: (payload: Record<string, unknown>, entityId: string) => unknown;
  /** An action event's body (`approved`: `{ order }`). */
  actionBody?: (entity: unknown, payload: Record<string, unknown>) => unknown;
}

const cartIn = (payload: Record<string, unknown>) => payload.cart;
/**
 * A member's created and updated events carry the member as the change left it (the hosted event's
 * entity); a deletion, and events written before they did, carry what changed, with the member's id.
 */
const memberIn = (payload: Record<string, unknown>, entityId: string) => {
  if (payload.member) return payload.member;
  const { memberId: _, ...change } = payload;
  return { id: entityId, ...change };
};
const wholePayload = (payload: Record<string, unknown>) => payload;
const orderBody = (entity: unknown) => ({ order: entity });

const DOMAIN_EVENTS: readonly DomainEventKind[] = [
  { entity: 'cart', slug: 'created', shape: 'created', entityIn: cartIn },
  { entity: 'cart', slug: 'updated', shape: 'updated', entityIn: cartIn },
  { entity: 'cart', slug: 'deleted', shape: 'deleted', entityIn: cartIn },
  { entity: 'checkout', slug: 'created', shape: 'created' },
  { entity: 'checkout', slug: 'updated', shape: 'updated' },
  {
    entity: 'checkout',
    slug: 'completed',
    shape: 'action',
    actionBody: (entity, payload) => ({
      checkout: entity,
      ...(payload.orderId ? { orderId: payload.orderId } : {}),
    }),
  },
  { entity: 'checkoutSettings', slug: 'updated', shape: 'updated' },
  { entity: 'order', slug: 'created', shape: 'created' },
  { entity: 'order', slug: 'updated', shape: 'updated' },
  { entity: 'order', slug: 'approved', shape: 'action', actionBody: orderBody },
  { entity: 'order', slug: 'canceled', shape: 'action', actionBody: orderBody },
  { entity: 'orderTransactions', slug: 'updated', shape: 'updated' },
  { entity: 'fulfillments', slug: 'updated', shape: 'updated', entityIn: wholePayload },
  { entity: 'discountRule', slug: 'created', shape: 'created' },
  { entity: 'discountRule', slug: 'updated', shape: 'updated' },
  { entity: 'discountRule', slug: 'deleted', shape: 'deleted' },
  { entity: 'checkoutTemplate', slug: 'created', shape: 'created' },
  { entity: 'checkoutTemplate', slug: 'updated', shape: 'updated' },
  { entity: 'checkoutTemplate', slug: 'deleted', shape: 'deleted' },
  // the hosted `CheckoutTemplateUsed`: the template and the checkout made of it
  { entity: 'checkoutTemplate', slug: 'used', shape: 'action', actionBody: (_, payload) => payload },
  { entity: 'abandonedCheckout', slug: 'created', shape: 'created' },
  { entity: 'abandonedCheckout', slug: 'deleted', shape: 'deleted' },
  // the hosted `AbandonedCheckoutRecovered`: the abandoned checkout as its recovery left it
  { entity: 'abandonedCheckout', slug: 'recovered', shape: 'action', actionBody: (_, payload) => payload },
  { entity: 'subscriptionContract', slug: 'created', shape: 'created' },
  { entity: 'subscriptionContract', slug: 'updated', shape: 'updated' },
  { entity: 'backInStockRequest', slug: 'created', shape: 'created' },
  { entity: 'backInStockRequest', slug: 'updated', shape: 'updated' },
  { entity: 'backInStockRequest', slug: 'deleted', shape: 'deleted' },
  { entity: 'member', slug: 'created', shape: 'created', entityIn: memberIn },
  { entity: 'member', slug: 'updated', shape: 'updated', entityIn: memberIn },
  { entity: 'member', slug: 'deleted', shape: 'deleted', entityIn: memberIn },
  { entity: 'redirectSession', slug: 'created', shape: 'created' },
  { entity: 'inventoryItem', slug: 'updated', shape: 'updated' },
  ...(['brand', 'ribbon', 'infoSection', 'customization'] as const).flatMap((entity) =>
    (['created', 'updated', 'deleted'] as const).map((slug) => ({ entity, slug, shape: slug })),
  ),
];

const V1_CATALOG = 'com.wix.ecommerce.catalog.api.v1';

interface PlainEventKind {
  entity: EventEntity;
  slug: EventSlug;
  type: string;
  data: (payload: Record<string, unknown>, entityId: string) => Record<string, unknown>;
}

const entityOfPayload = (payload: Record<string, unknown>) =>
  (payload.entity ?? {}) as Record<string, unknown>;

/** The v1 catalog's plain events (the SDK's `PlainEventData`). */
const PLAIN_EVENTS: readonly PlainEventKind[] = [
  {
    entity: 'product',
    slug: 'created',
    type: `${V1_CATALOG}.ProductCreated`,
    data: (payload, productId) => {
      const product = entityOfPayload(payload);
      return { productId, name: product.name, visible: product.visible, productType: product.productType };
    },
  },
  {
    entity: 'product',
    slug: 'updated',
    type: `${V1_CATALOG}.ProductChanged`,
    data: (_, productId) => ({ productId }),
  },
  {
    entity: 'product',
    slug: 'deleted',
    type: `${V1_CATALOG}.ProductDeleted`,
    data: (_, productId) => ({ productId }),
  },
  {
    entity: 'product',
    slug: 'variants_changed',
    type: `${V1_CATALOG}.VariantsChanged`,
    data: (payload, productId) => ({ productId, variants: payload.variants ?? [] }),
  },
  {
    entity: 'collection',
    slug: 'created',
    type: `${V1_CATALOG}.CollectionCreated`,
    data: (payload, collectionId) => ({ collectionId, name: entityOfPayload(payload).name }),
  },
  {
    entity: 'collection',
    slug: 'updated',
    type: `${V1_CATALOG}.CollectionChanged`,
    data: (_, collectionId) => ({ collectionId }),
  },
  {
    entity: 'collection',
    slug: 'deleted',
    type: `${V1_CATALOG}.CollectionDeleted`,
    data: (_, collectionId) => ({ collectionId }),
  },
];

/**
 * What an app must hold to take an entity's events: a delivery carries the entity itself (a buyer's
 * order and address, a member's profile), so subscribing is reading it. The catalog's events carry what
 * the storefront shows anyone. Checked when an endpoint is registered or changed.
 */
const READ_PERMISSION: Record<EventEntity, Permission | undefined> = {
  cart: 'orders.read',
  checkout: 'orders.read',
  order: 'orders.read',
  fulfillments: 'orders.read',
  orderTransactions: 'orders.read',
  member: 'members.read',
  identity: 'members.read',
  product: undefined,
  collection: undefined,
  inventory: undefined,
  inventoryItem: undefined,
  brand: undefined,
  ribbon: undefined,
  infoSection: undefined,
  customization: undefined,
  checkoutSettings: 'settings.manage',
  discountRule: 'settings.manage',
  // a session carries the checkout it leads to and the store's callback addresses
  redirectSession: 'orders.read',
  checkoutTemplate: 'settings.manage',
  abandonedCheckout: 'orders.read',
  subscriptionContract: 'orders.read',
  // a request carries the shopper's email, as an order does
  backInStockRequest: 'orders.read',
};

const key = (entity: EventEntity, slug: string) => `${entity} ${slug}`;
const domainType = (kind: DomainEventKind) => `${EVENT_ENTITIES[kind.entity]}_${kind.slug}`;

const DOMAIN_BY_EVENT = new Map(DOMAIN_EVENTS.map((kind) => [key(kind.entity, kind.slug), kind]));
const PLAIN_BY_EVENT = new Map(PLAIN_EVENTS.map((kind) => [key(kind.entity, kind.slug), kind]));

/** Every event type an endpoint may take, in the table's order. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...DOMAIN_EVENTS.map(domainType),
  ...PLAIN_EVENTS.map((kind) => kind.type),
];
const KNOWN_TYPES = new Set(WEBHOOK_EVENT_TYPES);
export const isWebhookEventType = (type: string): boolean => KNOWN_TYPES.has(type);

const ENTITY_BY_TYPE = new Map<string, EventEntity>([
  ...DOMAIN_EVENTS.map((kind) => [domainType(kind), kind.entity] as const),
  ...PLAIN_EVENTS.map((kind) => [kind.type, kind.entity] as const),
]);

/** The permission an app must hold to subscribe to `type` (undefined: none, or not a known type). */
export function readPermissionOf(type: string): Permission | undefined {
  const entity = ENTITY_BY_TYPE.get(type);
  return entity === undefined ? undefined : READ_PERMISSION[entity];
}

/** The outbox events the fan-out reads: those some webhook event type is made from. */
export const WEBHOOK_SOURCES: Partial<Record<EventEntity, EventSlug[]>> = {};
for (const { entity, slug } of [...DOMAIN_EVENTS, ...PLAIN_EVENTS]) {
  const slugs = WEBHOOK_SOURCES[entity] ?? [];
  if (!slugs.includes(slug)) WEBHOOK_SOURCES[entity] = [...slugs, slug];
}

/** The webhook events an outbox event makes: its domain event, and a v1 catalog plain event where one exists. */
export function webhookEventsOf(event: RecordedEvent): WebhookEvent[] {
  const made: WebhookEvent[] = [];
  const identity = identityOf(event.actor);
  const domain = DOMAIN_BY_EVENT.get(key(event.entity, event.slug));
  if (domain) made.push({ eventType: domainType(domain), data: domainEvent(domain, event), identity });
  const plain = PLAIN_BY_EVENT.get(key(event.entity, event.slug));
  if (plain) made.push({ eventType: plain.type, data: plain.data(event.payload, event.entityId), identity });
  return made;
}

/** The hosted platform's domain event (the SDK's `DomainEventBody`) for an outbox event. */
function domainEvent(kind: DomainEventKind, event: RecordedEvent): Record<string, unknown> {
  const entity = (kind.entityIn ?? entityOfPayload)(event.payload, event.entityId) ?? { id: event.entityId };
  const body: Record<string, unknown> = {
    id: event.id,
    entityFqdn: EVENT_ENTITIES[event.entity],
    slug: event.slug,
    entityId: event.entityId,
    eventTime: event.createdDate,
    ...(event.entityEventSequence === undefined
      ? {}
      : { entityEventSequence: String(event.entityEventSequence) }),
  };
  switch (kind.shape) {
    case 'created':
      return { ...body, createdEvent: { entity } };
    case 'updated':
      return { ...body, updatedEvent: { currentEntity: entity } };
    case 'deleted':
      return { ...body, deletedEvent: { deletedEntity: entity } };
    case 'action':
      return { ...body, actionEvent: { body: kind.actionBody?.(entity, event.payload) ?? entity } };
  }
}

/** Who caused an event, in the hosted platform's identity form (the SDK's `EventIdentity`). */
export function identityOf(actor: EventActor): Record<string, unknown> {
  switch (actor.type) {
    case 'VISITOR':
      return { identityType: 'ANONYMOUS_VISITOR', anonymousVisitorId: actor.id };
    case 'MEMBER':
      return { identityType: 'MEMBER', memberId: actor.id };
    case 'STAFF':
      return { identityType: 'WIX_USER', wixUserId: actor.id };
    case 'API_KEY':
      return { identityType: 'APP', appId: actor.id };
    default:
      return { identityType: 'UNKNOWN' };
  }
}

/**
 * A test event of `type` for an endpoint's "send a test event": the type's own shape (a receiver using
 * the hosted client's `webhooks.process` dispatches only the types it has handlers for, so a made-up
 * test type would be refused there), about an entity that is nothing but a fresh id no record has, and
 * with an event id the receiver can tell by its `test-` start. No `entityEventSequence`: it is none of
 * an entity's events.
 */
export function sampleEventOf(
  type: string,
  sample: { eventId: string; entityId: string; time: string; actor: EventActor },
): WebhookEvent | undefined {
  const identity = identityOf(sample.actor);
  const domain = DOMAIN_EVENTS.find((kind) => domainType(kind) === type);
  const event: RecordedEvent = {
    id: sample.eventId,
    sequence: 0,
    entity: domain?.entity ?? ENTITY_BY_TYPE.get(type) ?? 'product',
    slug: domain?.slug ?? 'created',
    entityId: sample.entityId,
    createdDate: sample.time,
    payload: { entity: { id: sample.entityId, name: 'Test event' } },
    actor: sample.actor,
    entityEventSequence: undefined,
  };
  if (domain) {
    const bare = { ...domain, entityIn: () => ({ id: sample.entityId }) };
    return { eventType: type, data: domainEvent(bare, event), identity };
  }
  const plain = PLAIN_EVENTS.find((kind) => kind.type === type);
  if (!plain) return undefined;
  return { eventType: type, data: plain.data(event.payload, sample.entityId), identity };
}
