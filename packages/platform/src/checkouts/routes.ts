import type { StoreCheckoutSettings } from '@cartwheel/sdk';
import type { FastifyRequest } from 'fastify';
import { CheckoutPage } from '../buying/checkout-page.ts';
import type { BuyingPath } from '../buying/path.ts';
import type { OrderPlacement } from '../buying/placing.ts';
import type { PlatformConfig } from '../config.ts';
import type { HttpApp } from '../http/app.ts';
import { EmptyAnswer } from '../http/responses.ts';
import type { StoreSettingsService } from '../store-settings/service.ts';
import { CHECKOUT_OPERATIONS } from './operations-access.ts';
import {
  AttemptAnswer,
  CheckoutAnswer,
  CheckoutUrlAnswer,
  CreateOrderAnswer,
  PageSessionAnswer,
  PayAnswer,
} from './responses.ts';
import {
  AddToCheckoutBody,
  AttemptParams,
  CartParams,
  CheckoutParams,
  ConfirmBody,
  CreateCheckoutBody,
  PageUpdateBody,
  PayBody,
  RemoveLineItemsBody,
  SESSION_HEADER,
  UpdateCheckoutBody,
  UpdateQuantitiesBody,
} from './schemas.ts';
import type { CheckoutService } from './service.ts';

/**
 * The checkout calls under `/ecom/v1/checkouts` (the checkout's owner or an admin; anyone else is told
 * it does not exist), and the hosted checkout page's API under `/_api/checkout-page/v1`, which names
 * its checkout by the `X-Checkout-Session` header instead of an access token.
 */
export function checkoutRoutes(
  app: HttpApp,
  services: {
    checkouts: CheckoutService;
    /** create-order, a step of the buying path. */
    buying: Pick<BuyingPath, 'createOrder'>;
    placement: OrderPlacement;
    config: Pick<PlatformConfig, 'storeName'>;
    storeSettings: Pick<StoreSettingsService, 'checkoutSettings'>;
  },
): void {
  const checkouts = services.checkouts;
  const path = '/ecom/v1/checkouts';

  app.post(
    path,
    {
      schema: { body: CreateCheckoutBody, response: { 200: CheckoutAnswer } },
      config: CHECKOUT_OPERATIONS.createCheckout,
    },
    async (request) => ({
      checkout: await checkouts.createFromLines(request.principal, request.body),
    }),
  );

  app.get(
    `${path}/:id`,
    {
      schema: { params: CheckoutParams, response: { 200: CheckoutAnswer } },
      config: CHECKOUT_OPERATIONS.getCheckout,
    },
    async (request) => ({
      checkout: await checkouts.get(request.params.id, request.principal),
    }),
  );

  app.get(
    `${path}/by-cart-id/:cartId`,
    {
      schema: { params: CartParams, response: { 200: CheckoutAnswer } },
      config: CHECKOUT_OPERATIONS.getCheckoutByCartId,
    },
    async (request) => ({
      checkout: await checkouts.byCart(request.params.cartId, request.principal),
    }),
  );

  app.patch(
    `${path}/:id`,
    {
      schema: { params: CheckoutParams, body: UpdateCheckoutBody, response: { 200: CheckoutAnswer } },
      config: CHECKOUT_OPERATIONS.updateCheckout,
    },
    async (request) => {
      const { checkout = {}, couponCode } = request.body;
      const billing = checkout.billingInfo;
      const destination = checkout.shippingInfo?.shippingDestination;
      const carrier = checkout.shippingInfo?.selectedCarrierServiceOption;
      return {
        checkout: await checkouts.update(request.params.id, request.principal, {
          ...(checkout.buyerInfo?.email !== undefined ? { email: checkout.buyerInfo.email } : {}),
          ...(checkout.buyerNote !== undefined ? { buyerNote: checkout.buyerNote } : {}),
          ...(billing?.address !== undefined ? { billingAddress: billing.address } : {}),
          ...(destination?.address !== undefined ? { shippingAddress: destination.address } : {}),
          ...((destination?.contactDetails ?? billing?.contactDetails) !== undefined
            ? { contactDetails: destination?.contactDetails ?? billing?.contactDetails ?? null }
            : {}),
          ...(carrier !== undefined ? { selectedShippingOption: carrier } : {}),
          ...(couponCode !== undefined ? { couponCode } : {}),
        }),
      };
    },
  );

  app.post(
    `${path}/:id/add-to-checkout`,
    {
      schema: { params: CheckoutParams, body: AddToCheckoutBody, response: { 200: CheckoutAnswer } },
      config: CHECKOUT_OPERATIONS.addToCheckout,
    },
    async (request) => ({
      checkout: await checkouts.addLines(request.params.id, request.principal, request.body.lineItems),
    }),
  );

  app.post(
    `${path}/:id/remove-line-items`,
    {
      schema: { params: CheckoutParams, body: RemoveLineItemsBody, response: { 200: CheckoutAnswer } },
      config: CHECKOUT_OPERATIONS.removeLineItems,
    },
    async (request) => ({
      checkout: await checkouts.removeLines(request.params.id, request.principal, request.body.lineItemIds),
    }),
  );

  app.post(
    `${path}/:id/update-line-items-quantity`,
    {
      schema: { params: CheckoutParams, body: UpdateQuantitiesBody, response: { 200: CheckoutAnswer } },
      config: CHECKOUT_OPERATIONS.updateLineItemsQuantity,
    },
    async (request) => ({
      checkout: await checkouts.updateQuantities(
        request.params.id,
        request.principal,
        request.body.lineItems,
      ),
    }),
  );

  app.post(
    `${path}/:id/remove-coupon`,
    {
      schema: { params: CheckoutParams, response: { 200: CheckoutAnswer } },
      config: CHECKOUT_OPERATIONS.removeCoupon,
    },
    async (request) => ({
      checkout: await checkouts.removeCoupon(request.params.id, request.principal),
    }),
  );

  app.post(
    `${path}/:id/create-order`,
    {
      schema: { params: CheckoutParams, response: { 200: CreateOrderAnswer } },
      config: CHECKOUT_OPERATIONS.createOrder,
    },
    (request) => services.buying.createOrder(request.params.id, request.principal),
  );

  app.get(
    `${path}/:id/checkout-url`,
    {
      schema: { params: CheckoutParams, response: { 200: CheckoutUrlAnswer } },
      config: CHECKOUT_OPERATIONS.getCheckoutUrl,
    },
    async (request) => ({
      checkoutUrl: (await checkouts.openSession(request.params.id, request.principal, {})).url,
    }),
  );

  app.post(
    `${path}/:id/mark-as-completed`,
    {
      schema: { params: CheckoutParams, response: { 200: EmptyAnswer } },
      config: CHECKOUT_OPERATIONS.markCheckoutAsCompleted,
    },
    async (request) => {
      await checkouts.markCompleted(request.params.id, request.principal);
      return {};
    },
  );

  // ---- the hosted checkout page: the session token is the caller's only credential ----
  const page = new CheckoutPage(checkouts, services.placement, async () => ({
    storeName: services.config.storeName,
    checkoutBrand: brandShown(await services.storeSettings.checkoutSettings()),
  }));
  const pagePath = '/_api/checkout-page/v1';
  const session = (request: FastifyRequest) => {
    const header = request.headers[SESSION_HEADER];
    return typeof header === 'string' ? header : undefined;
  };

  app.get(
    `${pagePath}/session`,
    { schema: { response: { 200: PageSessionAnswer } }, config: CHECKOUT_OPERATIONS.getCheckoutPageSession },
    (request) => page.session(session(request)),
  );
  app.post(
    `${pagePath}/update`,
    {
      schema: { body: PageUpdateBody, response: { 200: CheckoutAnswer } },
      config: CHECKOUT_OPERATIONS.updateOnCheckoutPage,
    },
    (request) => page.update(session(request), request.body),
  );
  app.post(
    `${pagePath}/remove-coupon`,
    { schema: { response: { 200: CheckoutAnswer } }, config: CHECKOUT_OPERATIONS.removeCouponOnCheckoutPage },
    (request) => page.removeCoupon(session(request)),
  );
  app.post(
    `${pagePath}/pay`,
    {
      schema: { body: PayBody, response: { 200: PayAnswer } },
      config: CHECKOUT_OPERATIONS.payOnCheckoutPage,
    },
    (request) => page.pay(session(request), request.body),
  );
  app.get(
    `${pagePath}/attempts/:attemptId`,
    {
      schema: { params: AttemptParams, response: { 200: AttemptAnswer } },
      config: CHECKOUT_OPERATIONS.getPaymentAttempt,
    },
    (request) => page.attempt(session(request), request.params.attemptId),
  );
  app.post(
    `${pagePath}/attempts/:attemptId/confirm`,
    {
      schema: { params: AttemptParams, body: ConfirmBody, response: { 200: PayAnswer } },
      config: CHECKOUT_OPERATIONS.confirmPaymentAttempt,
    },
    (request) => page.confirm(session(request), request.params.attemptId, request.body.approve),
  );
}

/** The brand the hosted page shows: the merchant's while their settings are ACTIVE, the plain one when INACTIVE. */
function brandShown(settings: StoreCheckoutSettings): Record<string, unknown> {
  return settings.status === 'INACTIVE'
    ? { header: { logo: null, alignment: 'SIDE' } }
    : settings.checkoutBrand;
}
