import type { TSchema } from 'typebox';
import type { BuyingPath } from '../buying/path.ts';
import { CART_OPERATIONS } from '../carts/operations-access.ts';
import { CartAnswer, CreateCheckoutAnswer } from '../carts/responses.ts';
import { cartOwner } from '../carts/routes.ts';
import { AddToCartBody, CreateCheckoutBody } from '../carts/schemas.ts';
import type { CartService } from '../carts/service.ts';
import { CATALOG_OPERATIONS } from '../catalog/operations-access.ts';
import { checkFilterBudget } from '../catalog/query.ts';
import { readRestQueryForms } from '../catalog/query-forms.ts';
import {
  CollectionAnswer,
  CollectionPageAnswer,
  ProductAnswer,
  ProductPageAnswer,
} from '../catalog/responses.ts';
import { CatalogQueryRequest, type FlagInput } from '../catalog/schemas.ts';
import type { CatalogService, Viewer } from '../catalog/service.ts';
import { truthy } from '../catalog/storage.ts';
import { CHECKOUT_OPERATIONS } from '../checkouts/operations-access.ts';
import { CheckoutAnswer } from '../checkouts/responses.ts';
import type { CheckoutService } from '../checkouts/service.ts';
import { refusal } from '../http/app.ts';
import { MEMBER_OPERATIONS } from '../members/operations-access.ts';
import { MemberAnswer, MemberPageAnswer } from '../members/responses.ts';
import { GetMyMemberQuery, QueryMembersBody } from '../members/schemas.ts';
import type { MembersService } from '../members/service.ts';
import type { TokenService } from '../oauth/tokens.ts';
import { ORDER_OPERATIONS } from '../orders/operations-access.ts';
import { OrderAnswer, SearchOrdersAnswer } from '../orders/responses.ts';
import { SearchOrdersBody } from '../orders/schemas.ts';
import type { OrderService } from '../orders/service.ts';
import type { Operation } from '../shared/access.ts';
import { notFound } from '../shared/errors.ts';
import type { Principal } from '../shared/principal.ts';
import type { KeptAnswers } from './kept-answers.ts';

/** What the GraphQL fields call: the same services the REST routes call, nothing of their own. */
export interface GraphQLServices {
  catalog: CatalogService;
  carts: CartService;
  buying: Pick<BuyingPath, 'checkoutCart'>;
  checkouts: Pick<CheckoutService, 'get'>;
  orders: Pick<OrderService, 'get' | 'search'>;
  members: Pick<MembersService, 'getMy' | 'queryMembers'>;
  tokens: Pick<TokenService, 'resolveElevated'>;
}

/** One call of a root field: who it is for (after its operation's access check) and how they called. */
export interface FieldCall {
  principal: Principal;
  authorization: string | undefined;
}

/** A root field's argument: an id or text, or a structured input checked by the REST body's schema. */
export type Argument =
  | { kind: 'id'; required: boolean }
  | { kind: 'text'; required: boolean }
  | { kind: 'input'; schema: TSchema; required: boolean };

/**
 * One root field of the schema: the operation it serves (its access is that operation's entry in its
 * domain's table, the same the REST routes read), its arguments, the REST answer whose schema is its
 * type (`answer`, or its `unwrap` key: `product` of `{product}`), and the service call.
 */
export interface RootField {
  operation: Operation;
  description: string;
  args: Record<string, Argument>;
  answer: TSchema;
  unwrap?: string;
  /** The GraphQL type name of what it answers (`Product`, `ProductPage`): the REST answer's, or its `unwrap` key's. */
  typeName: string;
  resolve(args: Record<string, any>, call: FieldCall): Promise<unknown>;
}

const id = { kind: 'id', required: true } as const;
const input = (schema: TSchema, required = false): Argument => ({ kind: 'input', schema, required });

const viewer = (principal: Principal): Viewer => ({ admin: principal.kind === 'admin' });

/**
 * A page of products is read without its variants: `Product.variants` loads them for the whole page,
 * only when asked. A merchant's read (`includeMerchantSpecificData`) keeps its own flag, and its
 * variants come with it, as the merchant's.
 */
const withoutVariantFlags = (request: Record<string, unknown> | undefined) => {
  const { includeVariants, ...rest } = request ?? {};
  return truthy(rest.includeMerchantSpecificData as FlagInput) ? { ...rest, includeVariants } : rest;
};

/** A catalog query read the way its REST route reads it (query-forms.ts, then the filter's budget). */
function catalogQuery(request: Record<string, any> | undefined): CatalogQueryRequest {
  const query = request?.query;
  if (query !== null && typeof query === 'object' && !Array.isArray(query)) {
    readRestQueryForms(query);
    checkFilterBudget(query.filter);
  }
  return (request ?? {}) as CatalogQueryRequest;
}

/**
 * The queries (reads) and mutations GraphQL offers: catalog, current cart, checkout, orders, members.
 * A structured argument takes the REST call's body as it is (`query` of a catalog query, `search` of an
 * orders search), checked by the same schema, so both APIs take the same input and give the same answer.
 */
export function rootFields(
  services: GraphQLServices,
  kept: KeptAnswers,
): {
  query: Record<string, RootField>;
  mutation: Record<string, RootField>;
} {
  const { catalog, carts, checkouts, orders, members } = services;
  const ownerOf = (call: FieldCall) => cartOwner(call.principal, call.authorization, services.tokens);
  // a visitor's catalog read is text the catalog keeps: parsed once for every request that gets it
  const catalogAnswer = (text: string, call: FieldCall) => kept.parse(text, call.principal.kind !== 'admin');
  return {
    query: {
      products: {
        operation: CATALOG_OPERATIONS.queryProducts,
        description:
          'A page of products: `request` is the body of POST /stores-reader/v1/products/query ({query: {filter, sort, paging}}).',
        args: { request: input(CatalogQueryRequest) },
        answer: ProductPageAnswer,
        typeName: 'ProductPage',
        resolve: async ({ request }, call) =>
          catalogAnswer(
            await catalog.queryProductsJson(
              catalogQuery(withoutVariantFlags(request)),
              viewer(call.principal),
            ),
            call,
          ),
      },
      product: {
        operation: CATALOG_OPERATIONS.getProduct,
        description: 'A product by id, with its variants (GET /stores-reader/v1/products/{id}).',
        args: { id },
        answer: ProductAnswer,
        unwrap: 'product',
        typeName: 'Product',
        resolve: async ({ id }, call) =>
          catalogAnswer(await catalog.productJson(id, viewer(call.principal)), call).product,
      },
      productBySlug: {
        operation: CATALOG_OPERATIONS.queryProducts,
        description: 'A product by its slug: the products query filtered by slug.',
        args: { slug: { kind: 'text', required: true } },
        answer: ProductAnswer,
        unwrap: 'product',
        typeName: 'Product',
        resolve: async ({ slug }, call) => {
          const page = catalogAnswer(
            await catalog.queryProductsJson(
              catalogQuery({ query: { filter: { slug }, paging: { limit: 1 } } }),
              viewer(call.principal),
            ),
            call,
          );
          const product = page.products[0];
          if (!product) throw notFound('product', slug);
          return product;
        },
      },
      collections: {
        operation: CATALOG_OPERATIONS.queryCollections,
        description:
          'A page of collections: `request` is the body of POST /stores-reader/v1/collections/query.',
        args: { request: input(CatalogQueryRequest) },
        answer: CollectionPageAnswer,
        typeName: 'CollectionPage',
        resolve: ({ request }, call) =>
          catalog.queryCollections(catalogQuery(request), viewer(call.principal)),
      },
      collection: {
        operation: CATALOG_OPERATIONS.getCollection,
        description: 'A collection by id.',
        args: { id },
        answer: CollectionAnswer,
        unwrap: 'collection',
        typeName: 'Collection',
        resolve: ({ id }, call) => catalog.collection(id, viewer(call.principal)),
      },
      collectionBySlug: {
        operation: CATALOG_OPERATIONS.getCollectionBySlug,
        description: 'A collection by its slug.',
        args: { slug: { kind: 'text', required: true } },
        answer: CollectionAnswer,
        unwrap: 'collection',
        typeName: 'Collection',
        resolve: ({ slug }, call) => catalog.collectionBySlug(slug, viewer(call.principal)),
      },
      currentCart: {
        operation: CART_OPERATIONS.getCurrentCart,
        description: "The caller's current cart (GET /ecom/v1/carts/current).",
        args: {},
        answer: CartAnswer,
        unwrap: 'cart',
        typeName: 'Cart',
        resolve: async (_args, call) => JSON.parse(await carts.currentJson(await ownerOf(call))).cart,
      },
      checkout: {
        operation: CHECKOUT_OPERATIONS.getCheckout,
        description: "A checkout of the caller's (GET /ecom/v1/checkouts/{id}).",
        args: { id },
        answer: CheckoutAnswer,
        unwrap: 'checkout',
        typeName: 'Checkout',
        resolve: ({ id }, call) => checkouts.get(id, call.principal),
      },
      order: {
        operation: ORDER_OPERATIONS.getOrder,
        description:
          "An order: a buyer's own, or any for staff holding orders.read (GET /ecom/v1/orders/{id}).",
        args: { id },
        answer: OrderAnswer,
        unwrap: 'order',
        typeName: 'Order',
        resolve: ({ id }, call) => orders.get(id, call.principal),
      },
      searchOrders: {
        operation: ORDER_OPERATIONS.searchOrders,
        description:
          'Orders: `request` is the body of POST /ecom/v1/orders/search ({search: {filter, sort, cursorPaging}}).',
        args: { request: input(SearchOrdersBody) },
        answer: SearchOrdersAnswer,
        typeName: 'OrderPage',
        resolve: ({ request }, call) => orders.search(request?.search ?? {}, call.principal),
      },
      myMember: {
        operation: MEMBER_OPERATIONS.getMyMember,
        description:
          'The signed-in member (GET /members/v1/members/my); `request` is its query ({fieldsets}).',
        args: { request: input(GetMyMemberQuery) },
        answer: MemberAnswer,
        unwrap: 'member',
        typeName: 'Member',
        resolve: ({ request }, call) => {
          if (call.principal.kind !== 'member')
            throw refusal(MEMBER_OPERATIONS.getMyMember.access, call.principal);
          return members.getMy(call.principal.memberId, request?.fieldsets ?? request?.fieldSet);
        },
      },
      members: {
        operation: MEMBER_OPERATIONS.queryMembers,
        description:
          'Members, as the caller may see them: `request` is the body of POST /members/v1/members/query.',
        args: { request: input(QueryMembersBody) },
        answer: MemberPageAnswer,
        typeName: 'MemberPage',
        resolve: ({ request }, call) => members.queryMembers(call.principal, request ?? {}),
      },
    },
    mutation: {
      addToCurrentCart: {
        operation: CART_OPERATIONS.addToCurrentCart,
        description:
          "Adds lines to the caller's cart: `request` is the body of POST .../current/add-to-cart.",
        args: { request: input(AddToCartBody, true) },
        answer: CartAnswer,
        unwrap: 'cart',
        typeName: 'Cart',
        resolve: async ({ request }, call) =>
          JSON.parse(await carts.addToCart(await ownerOf(call), request)).cart,
      },
      createCheckoutFromCurrentCart: {
        operation: CART_OPERATIONS.createCheckoutFromCurrentCart,
        description:
          "A checkout from the caller's cart: `request` is the body of POST .../current/create-checkout.",
        args: { request: input(CreateCheckoutBody) },
        answer: CreateCheckoutAnswer,
        typeName: 'CreatedCheckout',
        resolve: async ({ request }, call) =>
          services.buying.checkoutCart(await ownerOf(call), request ?? {}),
      },
    },
  };
}
