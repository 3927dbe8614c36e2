import Type from 'typebox';
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

/** An endpoint's deliveries, newest first, each with its attempts (the delivery log). */
export const DeliveriesAnswer = Type.Object({
  deliveries: Type.Array(
    Type.Object({
      id: Type.String(),
      eventId: Type.String(),
      eventType: Type.String(),
      entityEventSequence: Type.Union([Type.String(), Type.Null()]),
      status: Choice(['PENDING', 'DELIVERED', 'DEAD']),
      attempts: Type.Array(Attempt),
      nextAttemptDate: NullableText,
      createdDate: Type.String(),
      deliveredDate: NullableText,
    }),
  ),
});
