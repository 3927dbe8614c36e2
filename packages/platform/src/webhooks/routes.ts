import type { HttpApp } from '../http/app.ts';
import { IdParams } from '../http/input.ts';
import { EmptyAnswer } from '../http/responses.ts';
import { currentActor } from '../shared/actor.ts';
import { readPermissionOf, WEBHOOK_EVENT_TYPES } from './event-types.ts';
import { WEBHOOK_OPERATIONS as OPS } from './operations-access.ts';
import {
  CreatedWebhookAnswer,
  DeadLettersAnswer,
  DeliveriesAnswer,
  DeliveryAnswer,
  EventTypesAnswer,
  PublicKeyAnswer,
  ReplayedAnswer,
  WebhookAnswer,
  WebhooksAnswer,
} from './responses.ts';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryParams,
  ReplayBody,
  UpdateWebhookBody,
} from './schemas.ts';
import { appOf, callerOf, type WebhookService } from './service.ts';

/**
 * An app's webhook endpoints (issue 31), for staff and API keys holding `webhooks.manage`: each call
 * acts on the calling app's own endpoints and key (an API key's app, or the OAuth client a staff
 * member signed in through; the admin key is an app of its own).
 */
export function webhookRoutes(app: HttpApp, services: { webhooks: WebhookService }): void {
  const { webhooks } = services;
  const base = '/api/cartwheel/webhooks';

  app.get(
    base,
    { schema: { response: { 200: WebhooksAnswer } }, config: OPS.listWebhooks },
    async (request) => ({
      webhooks: await webhooks.endpoints.list(appOf(request.principal)),
    }),
  );
  app.post(
    base,
    {
      schema: { body: CreateWebhookBody, response: { 200: CreatedWebhookAnswer } },
      config: OPS.createWebhook,
    },
    async (request) => {
      const { endpoint, secret } = await webhooks.endpoints.create(
        callerOf(request.principal),
        request.body.webhook,
      );
      return { webhook: endpoint, ...(secret ? { secret } : {}) };
    },
  );
  // the key deliveries to the caller's endpoints are signed with: what `AppStrategy({ publicKey })` takes
  app.get(
    `${base}/public-key`,
    { schema: { response: { 200: PublicKeyAnswer } }, config: OPS.getPublicKey },
    async (request) => ({ publicKey: await webhooks.keys.publicKey(appOf(request.principal)) }),
  );
  // what an endpoint may take, for the back office's choice of event types
  app.get(
    `${base}/event-types`,
    { schema: { response: { 200: EventTypesAnswer } }, config: OPS.listEventTypes },
    async () => ({
      eventTypes: WEBHOOK_EVENT_TYPES.map((eventType) => ({
        eventType,
        permission: readPermissionOf(eventType) ?? null,
      })),
    }),
  );
  // the back office home's work queue: deliveries given up on, across the caller's endpoints
  app.get(
    `${base}/dead-letters/count`,
    { schema: { response: { 200: DeadLettersAnswer } }, config: OPS.countDeadLetters },
    async (request) => ({ count: await webhooks.delivery.deadLetterCount(appOf(request.principal)) }),
  );
  app.get(
    `${base}/:id`,
    { schema: { params: IdParams, response: { 200: WebhookAnswer } }, config: OPS.getWebhook },
    async (request) => ({
      webhook: await webhooks.endpoints.get(appOf(request.principal), request.params.id),
    }),
  );
  app.patch(
    `${base}/:id`,
    {
      schema: { params: IdParams, body: UpdateWebhookBody, response: { 200: WebhookAnswer } },
      config: OPS.updateWebhook,
    },
    async (request) => ({
      webhook: await webhooks.endpoints.update(
        callerOf(request.principal),
        request.params.id,
        request.body.webhook,
      ),
    }),
  );
  app.delete(
    `${base}/:id`,
    { schema: { params: IdParams, response: { 200: EmptyAnswer } }, config: OPS.deleteWebhook },
    async (request) => {
      await webhooks.endpoints.delete(appOf(request.principal), request.params.id);
      return {};
    },
  );
  app.get(
    `${base}/:id/deliveries`,
    {
      schema: { params: IdParams, querystring: DeliveriesQuery, response: { 200: DeliveriesAnswer } },
      config: OPS.listDeliveries,
    },
    async (request) => {
      const endpoint = await webhooks.endpoints.get(appOf(request.principal), request.params.id);
      return { deliveries: await webhooks.delivery.log(endpoint.id, request.query) };
    },
  );
  app.post(
    `${base}/:id/test`,
    { schema: { params: IdParams, response: { 200: DeliveryAnswer } }, config: OPS.sendTestEvent },
    async (request) => {
      const endpoint = await webhooks.endpoints.get(appOf(request.principal), request.params.id);
      return { delivery: await webhooks.delivery.sendTest(endpoint, currentActor()) };
    },
  );
  app.post(
    `${base}/:id/deliveries/:deliveryId/replay`,
    { schema: { params: DeliveryParams, response: { 200: DeliveryAnswer } }, config: OPS.replayDelivery },
    async (request) => {
      const endpoint = await webhooks.endpoints.get(appOf(request.principal), request.params.id);
      return { delivery: await webhooks.delivery.replay(endpoint.id, request.params.deliveryId) };
    },
  );
  app.post(
    `${base}/:id/replay`,
    {
      schema: { params: IdParams, body: ReplayBody, response: { 200: ReplayedAnswer } },
      config: OPS.replaySince,
    },
    async (request) => {
      const endpoint = await webhooks.endpoints.get(appOf(request.principal), request.params.id);
      return { replayed: await webhooks.delivery.replaySince(endpoint.id, request.body.since) };
    },
  );
}
