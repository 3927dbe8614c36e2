import type { HttpApp } from '../http/app.ts';
import { Empty } from '../http/responses-identity.ts';
import { CHECKOUT_TEMPLATE_OPERATIONS } from './operations-access.ts';
import {
  CheckoutFromTemplateAnswer,
  CheckoutTemplateAnswer,
  CheckoutTemplatesPageAnswer,
  RedirectAnswer,
} from './responses.ts';
import {
  CreateCheckoutTemplateBody,
  QueryCheckoutTemplatesBody,
  TemplatePath,
  UpdateCheckoutTemplateBody,
  UseBody,
  UsePath,
  UseQuery,
} from './schemas.ts';
import type { CheckoutTemplateService, TemplateDraft } from './service.ts';

const PATH = '/ecom/v1/checkout-templates';

/**
 * The hosted `checkoutTemplates` calls at its paths, for those `CHECKOUT_TEMPLATE_OPERATIONS` names.
 * Each path id wins over any copy in the body.
 */
export function checkoutTemplateRoutes(
  app: HttpApp,
  services: { checkoutTemplates: CheckoutTemplateService },
): void {
  const templates = services.checkoutTemplates;

  app.post(
    PATH,
    {
      schema: { body: CreateCheckoutTemplateBody, response: { 200: CheckoutTemplateAnswer } },
      config: CHECKOUT_TEMPLATE_OPERATIONS.createCheckoutTemplate,
    },
    async (request) => ({
      checkoutTemplate: await templates.create(draftOf(request.body.checkoutTemplate)),
    }),
  );
  app.post(
    `${PATH}/query`,
    {
      schema: { body: QueryCheckoutTemplatesBody, response: { 200: CheckoutTemplatesPageAnswer } },
      config: CHECKOUT_TEMPLATE_OPERATIONS.queryCheckoutTemplates,
    },
    (request) => {
      const query = request.body.query;
      const status = query?.filter?.status;
      return templates.query(
        query?.cursorPaging?.limit ?? 50,
        query?.cursorPaging?.cursor ?? null,
        status === undefined ? null : typeof status === 'string' ? status : status.$eq,
      );
    },
  );
  app.get(
    `${PATH}/:id`,
    {
      schema: { params: TemplatePath, response: { 200: CheckoutTemplateAnswer } },
      config: CHECKOUT_TEMPLATE_OPERATIONS.getCheckoutTemplate,
    },
    async (request) => ({ checkoutTemplate: await templates.get(request.params.id) }),
  );
  app.patch(
    `${PATH}/:id`,
    {
      schema: {
        params: TemplatePath,
        body: UpdateCheckoutTemplateBody,
        response: { 200: CheckoutTemplateAnswer },
      },
      config: CHECKOUT_TEMPLATE_OPERATIONS.updateCheckoutTemplate,
    },
    async (request) => ({
      checkoutTemplate: await templates.update(request.params.id, draftOf(request.body.checkoutTemplate)),
    }),
  );
  app.delete(
    `${PATH}/:id`,
    {
      schema: { params: TemplatePath, response: { 200: Empty } },
      config: CHECKOUT_TEMPLATE_OPERATIONS.deleteCheckoutTemplate,
    },
    async (request) => {
      await templates.delete(request.params.id);
      return {};
    },
  );
  app.post(
    `${PATH}/:checkoutTemplateId/create-checkout-from-template`,
    {
      schema: { params: UsePath, body: UseBody, response: { 200: CheckoutFromTemplateAnswer } },
      config: CHECKOUT_TEMPLATE_OPERATIONS.createCheckoutFromTemplate,
    },
    (request) => templates.use(request.params.checkoutTemplateId, request.principal),
  );
  // a merchant's buy link: the shopper's browser opens it and lands on the hosted checkout page
  app.get(
    `${PATH}/:checkoutTemplateId/create-and-redirect-to-checkout`,
    {
      schema: { params: UsePath, querystring: UseQuery, response: { 302: RedirectAnswer } },
      config: CHECKOUT_TEMPLATE_OPERATIONS.createAndRedirectToCheckout,
    },
    async (request, reply) => {
      const { checkoutUrl } = await templates.use(request.params.checkoutTemplateId, request.principal);
      return reply.redirect(checkoutUrl, 302);
    },
  );
}

/** The body's template as the service takes it (the lines' shapes were checked by the schema). */
function draftOf(body: Record<string, unknown>): TemplateDraft {
  const { id: _pathCopy, ...draft } = body;
  return draft as TemplateDraft;
}
