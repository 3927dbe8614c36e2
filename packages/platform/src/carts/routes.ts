import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BuyingPath } from '../buying/path.ts';
import type { HttpApp } from '../http/app.ts';
import type { TokenService } from '../oauth/tokens.ts';
import { applicationError } from '../shared/errors.ts';
import type { Principal } from '../shared/principal.ts';
import { CART_OPERATIONS } from './operations-access.ts';
import { CartAnswer, CreateCheckoutAnswer, EmptyAnswer, EstimateTotalsAnswer } from './responses.ts';
import {
  AddToCartBody,
  CreateCheckoutBody,
  EstimateTotalsBody,
  RemoveLineItemsBody,
  UpdateCartBody,
  UpdateQuantitiesBody,
} from './schemas.ts';
import type { CartOwner, CartService } from './service.ts';

const json = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);

/**
 * The cart is always the caller's own: a visitor's by visitor id, a member's by member id. An admin API
 * key alone has none; with a visitor's token before it (`<token>,<key>`) it acts on that visitor's cart,
 * elevated. The REST routes and GraphQL (graphql/fields.ts) find it the same way.
 */
export function cartOwner(
  principal: Principal,
  authorization: string | undefined,
  tokens: Pick<TokenService, 'resolveElevated'>,
): CartOwner | Promise<CartOwner> {
  if (principal.kind === 'visitor') return { kind: 'visitor', visitorId: principal.visitorId };
  if (principal.kind === 'member') {
    return { kind: 'member', memberId: principal.memberId, visitorId: principal.visitorId };
  }
  return elevatedOwner(authorization, tokens);
}

async function elevatedOwner(
  authorization: string | undefined,
  tokens: Pick<TokenService, 'resolveElevated'>,
): Promise<CartOwner> {
  const elevated = await tokens.resolveElevated(authorization);
  if (!elevated) {
    throw applicationError(
      'PERMISSION_DENIED',
      'NO_CURRENT_CART',
      'an admin API key has no current cart: call with a visitor or member access token',
    );
  }
  return { kind: 'visitor', visitorId: elevated.visitorId, elevated: true };
}

/** The current visitor's or member's cart (point 7, "Cart (current visitor)"): the nine calls. */
export function cartRoutes(
  app: HttpApp,
  services: {
    carts: CartService;
    /** create-checkout, a step of the buying path. */
    buying: Pick<BuyingPath, 'checkoutCart'>;
    tokens: Pick<TokenService, 'resolveElevated'>;
  },
): void {
  const path = '/ecom/v1/carts/current';
  const carts = services.carts;

  const ownerOf = (request: FastifyRequest) =>
    cartOwner(request.principal, request.headers.authorization, services.tokens);

  // the service answers these as JSON text (a remembered answer is served as it is): sent without serialising
  app.get(
    path,
    { schema: { response: { 200: CartAnswer } }, config: CART_OPERATIONS.getCurrentCart },
    async (request, reply) => {
      // the hottest call of a shop: a visitor's or member's owner is known without waiting
      const owner = ownerOf(request);
      return json(reply, await carts.currentJson(owner instanceof Promise ? await owner : owner));
    },
  );

  app.patch(
    path,
    {
      schema: { body: UpdateCartBody, response: { 200: CartAnswer } },
      config: CART_OPERATIONS.updateCurrentCart,
    },
    async (request, reply) => json(reply, await carts.update(await ownerOf(request), request.body)),
  );

  app.delete(
    path,
    { schema: { response: { 200: EmptyAnswer } }, config: CART_OPERATIONS.deleteCurrentCart },
    async (request) => {
      await carts.deleteCurrent(await ownerOf(request));
      return {};
    },
  );

  app.post(
    `${path}/add-to-cart`,
    {
      schema: { body: AddToCartBody, response: { 200: CartAnswer } },
      config: CART_OPERATIONS.addToCurrentCart,
    },
    async (request, reply) => json(reply, await carts.addToCart(await ownerOf(request), request.body)),
  );

  app.post(
    `${path}/remove-line-items`,
    {
      schema: { body: RemoveLineItemsBody, response: { 200: CartAnswer } },
      config: CART_OPERATIONS.removeLineItemsFromCurrentCart,
    },
    async (request) => ({
      cart: await carts.removeLineItems(await ownerOf(request), request.body.lineItemIds),
    }),
  );

  app.post(
    `${path}/update-line-items-quantity`,
    {
      schema: { body: UpdateQuantitiesBody, response: { 200: CartAnswer } },
      config: CART_OPERATIONS.updateCurrentCartLineItemQuantity,
    },
    async (request) => ({
      cart: await carts.updateLineItemsQuantity(await ownerOf(request), request.body.lineItems),
    }),
  );

  app.post(
    `${path}/remove-coupon`,
    { schema: { response: { 200: CartAnswer } }, config: CART_OPERATIONS.removeCouponFromCurrentCart },
    async (request) => ({
      cart: await carts.removeCoupon(await ownerOf(request)),
    }),
  );

  app.post(
    `${path}/create-checkout`,
    {
      schema: { body: CreateCheckoutBody, response: { 200: CreateCheckoutAnswer } },
      config: CART_OPERATIONS.createCheckoutFromCurrentCart,
    },
    async (request) => services.buying.checkoutCart(await ownerOf(request), request.body),
  );

  app.post(
    `${path}/estimate-totals`,
    {
      schema: { body: EstimateTotalsBody, response: { 200: EstimateTotalsAnswer } },
      config: CART_OPERATIONS.estimateCurrentCartTotals,
    },
    async (request) => carts.estimateTotals(await ownerOf(request), request.body),
  );
}
