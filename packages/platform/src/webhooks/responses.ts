import Type from 'typebox';
import { OpenObject } from '../http/responses.ts';
import { Choice, NullableText } from '../http/responses-identity.ts';

/** What the webhook calls answer. */

const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  status: Choice(['ACTIVE', 'PAUSED']),
  pausedReason: NullableText,
  signature: Choice(['JWT', 'STANDARD']),
  createdDate: Type.String(),
  updatedDate: Type.String(),
});

export const WebhookAnswer = Type.Object({ webhook: Webhook });
/** A new endpoint: a Standard Webhooks one's secret is in this answer only. */
export const CreatedWebhookAnswer = Type.Object({ webhook: Webhook, secret: Type.Optional(Type.String()) });
export const WebhooksAnswer = Type.Object({ webhooks: Type.Array(Webhook) });
export const PublicKeyAnswer = Type.Object({ publicKey: Type.String() });

const Attempt = Type.Object({
  attempt: Type.Number(),
  date: Type.String(),
  outcome: Type.String(),
  statusCode: Type.Union([Type.Number(), Type.Null()]),
  durationMs: Type.Number(),
  responseExcerpt: NullableText,
});

/** One delivery of one event to one endpoint, with its attempts. */
const Delivery = Type.Object({
  id: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  entityEventSequence: Type.Union([Type.String(), Type.Null()]),
  status: Choice(['PENDING', 'DELIVERED', 'DEAD']),
  test: Type.Boolean(),
  /** The event as sent: the hosted domain event, or a v1 catalog plain event's data. */
  payload: OpenObject,
  attempts: Type.Array(Attempt),
  nextAttemptDate: NullableText,
  createdDate: Type.String(),
  deliveredDate: NullableText,
});

/** An endpoint's deliveries, newest first, each with its attempts (the delivery log). */
export const DeliveriesAnswer = Type.Object({ deliveries: Type.Array(Delivery) });
/** A test event or a replayed delivery, as the log shows it now (waiting to be sent). */
export const DeliveryAnswer = Type.Object({ delivery: Delivery });
export const ReplayedAnswer = Type.Object({ replayed: Type.Number() });
/** Dead letters of the caller's endpoints: a work queue on the back office home. */
export const DeadLettersAnswer = Type.Object({ count: Type.Number() });
/** The event types an endpoint may take, each with the permission an app needs to take it. */
export const EventTypesAnswer = Type.Object({
  eventTypes: Type.Array(Type.Object({ eventType: Type.String(), permission: NullableText })),
});
