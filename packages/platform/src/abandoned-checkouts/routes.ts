import type { HttpApp } from '../http/app.ts';
import { Empty } from '../http/responses-identity.ts';
import { ABANDONED_CHECKOUT_OPERATIONS } from './operations-access.ts';
import { AbandonedCheckoutAnswer, AbandonedCheckoutsPageAnswer, RedirectAnswer } from './responses.ts';
import { AbandonedCheckoutPath, QueryAbandonedCheckoutsBody } from './schemas.ts';
import type { AbandonedCheckoutService } from './service.ts';

const PATH = '/ecom/v1/abandoned-checkout';

/** The hosted `abandonedCheckouts` calls at its paths, and the two links of the recovery email. */
export function abandonedCheckoutRoutes(
  app: HttpApp,
  services: { abandonedCheckouts: AbandonedCheckoutService },
): void {
  const abandoned = services.abandonedCheckouts;

  app.post(
    `${PATH}/query`,
    {
      schema: { body: QueryAbandonedCheckoutsBody, response: { 200: AbandonedCheckoutsPageAnswer } },
      config: ABANDONED_CHECKOUT_OPERATIONS.queryAbandonedCheckouts,
    },
    (request) => {
      const query = request.body.query;
      const status = query?.filter?.status;
      return abandoned.query(
        query?.cursorPaging?.limit ?? 50,
        query?.cursorPaging?.cursor ?? null,
        status === undefined ? null : typeof status === 'string' ? status : status.$eq,
      );
    },
  );
  app.get(
    `${PATH}/:abandonedCheckoutId`,
    {
      schema: { params: AbandonedCheckoutPath, response: { 200: AbandonedCheckoutAnswer } },
      config: ABANDONED_CHECKOUT_OPERATIONS.getAbandonedCheckout,
    },
    async (request) => ({ abandonedCheckout: await abandoned.get(request.params.abandonedCheckoutId) }),
  );
  app.delete(
    `${PATH}/:abandonedCheckoutId`,
    {
      schema: { params: AbandonedCheckoutPath, response: { 200: Empty } },
      config: ABANDONED_CHECKOUT_OPERATIONS.deleteAbandonedCheckout,
    },
    async (request) => {
      await abandoned.delete(request.params.abandonedCheckoutId);
      return {};
    },
  );
  // the recovery email's link: the buyer's browser lands on the hosted checkout page, their cart as left
  app.get(
    `${PATH}/:abandonedCheckoutId/redirect-to-checkout`,
    {
      schema: { params: AbandonedCheckoutPath, response: { 302: RedirectAnswer } },
      config: ABANDONED_CHECKOUT_OPERATIONS.redirectToCheckout,
    },
    async (request, reply) =>
      reply.redirect(await abandoned.recoveryAddress(request.params.abandonedCheckoutId), 302),
  );
  app.get(
    '/api/cartwheel/abandoned-checkouts/:abandonedCheckoutId/unsubscribe',
    {
      schema: { params: AbandonedCheckoutPath },
      config: ABANDONED_CHECKOUT_OPERATIONS.unsubscribeFromRecoveryEmails,
    },
    async (request, reply) => {
      const email = await abandoned.unsubscribe(request.params.abandonedCheckoutId);
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><title>Unsubscribed</title><p>${escapeHtml(email)} will get no more reminders of unfinished checkouts.</p>`,
        );
    },
  );
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
