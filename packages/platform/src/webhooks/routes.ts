import type { HttpApp } from '../http/app.ts';
import { IdParams } from '../http/input.ts';
import { EmptyAnswer } from '../http/responses.ts';
import { WEBHOOK_OPERATIONS as OPS } from './operations-access.ts';
import {
  CreatedWebhookAnswer,
  DeliveriesAnswer,
  PublicKeyAnswer,
  WebhookAnswer,
  WebhooksAnswer,
} from './responses.ts';
import { CreateWebhookBody, DeliveriesQuery, UpdateWebhookBody } from './schemas.ts';
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
}
