import { OAuthStrategy as CartwheelOAuth, createClient as createCartwheelClient } from '@cartwheel/sdk';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy } from './billing-support.ts';
import { cartCalls, catalogLine, signUpFrom } from './cart-calls.ts';
import { admin, call, createProduct, createSizedProduct } from './catalog-http.ts';
import { shipToUs } from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * GraphQL (issue 33) over the built platform: the journeys of the REST calls (browse, cart, checkout,
 * order, merchant search, members) give the same answers through `POST /graphql/{apiVersion}`, a
 * caller reads no more than REST gives them, and hostile queries are refused before they cost anything
 * while the platform goes on answering.
 */

interface GraphQLAnswer {
  status: number;
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; path?: unknown[]; extensions?: { code: string; details?: any } }>;
}

async function graphql(
  platform: TestPlatform,
  query: string,
  options: { variables?: Record<string, unknown>; auth?: string; body?: unknown } = {},
): Promise<GraphQLAnswer> {
  const response = await fetch(`${platform.url}/graphql/alpha`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.auth ? { authorization: options.auth } : {}),
    },
    body: JSON.stringify(options.body ?? { query, variables: options.variables }),
  });
  return { status: response.status, ...(await response.json()) };
}

const codes = (answer: GraphQLAnswer) => (answer.errors ?? []).map((error) => error.extensions?.code);
const applicationCodes = (answer: GraphQLAnswer) =>
  (answer.errors ?? []).map((error) => error.extensions?.details?.applicationError?.code);

const PRODUCT_FIELDS = `id name slug priceData { currency price } stock { inStock }
  variants { id choices variant { priceData { price } visible } stock { inStock } }`;

/** The fields the GraphQL query above asks for, read from a REST product. */
const productFields = (product: any) => ({
  id: product.id,
  name: product.name,
  slug: product.slug,
  priceData: { currency: product.priceData.currency, price: product.priceData.price },
  stock: { inStock: product.stock.inStock },
  variants: product.variants.map((variant: any) => ({
    id: variant.id,
    choices: variant.choices,
    variant: { priceData: { price: variant.variant.priceData.price }, visible: variant.variant.visible },
    stock: { inStock: variant.stock.inStock },
  })),
});

const plain = (name: string, price: number) => ({ name, productType: 'physical', priceData: { price } });

describe.each(DIALECTS)('GraphQL on %s', (dialect) => {
  let platform: TestPlatform;
  const productIds: string[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    productIds.push((await createProduct(platform, plain('Graph Mug', 10))).id);
    productIds.push((await createSizedProduct(platform, 'Graph Tee', 11)).id);
    productIds.push((await createProduct(platform, plain('Graph Cap', 12))).id);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  describe('the journeys of the REST calls give the same answers', () => {
    it('browsing: a page of products with their variants, a product by id and by slug', async () => {
      const visitor = await visitorToken(platform);
      const rest = await call(
        platform,
        'POST',
        '/stores-reader/v1/products/query',
        {
          query: { sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 10 } },
          includeVariants: true,
        },
        visitor,
      );
      expect(rest.status).toBe(200);
      const answer = await graphql(
        platform,
        `query Page($request: JSON) { products(request: $request) {
           products { ${PRODUCT_FIELDS} } metadata { count offset total } } }`,
        {
          auth: visitor,
          variables: {
            request: { query: { sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 10 } } },
          },
        },
      );
      expect(answer.errors).toBeUndefined();
      expect(answer.data!.products.products).toEqual(rest.body.products.map(productFields));
      expect(answer.data!.products.metadata).toEqual({
        count: rest.body.metadata.count,
        offset: rest.body.metadata.offset,
        total: rest.body.metadata.total,
      });
      expect(answer.data!.products.products.map((p: any) => p.variants.length)).toEqual([1, 1, 2]);

      const one = await call(
        platform,
        'GET',
        `/stores-reader/v1/products/${productIds[1]}`,
        undefined,
        visitor,
      );
      const bySlug = await graphql(
        platform,
        `query One($id: ID!, $slug: String!) { product(id: $id) { ${PRODUCT_FIELDS} }
           productBySlug(slug: $slug) { ${PRODUCT_FIELDS} } }`,
        { auth: visitor, variables: { id: productIds[1], slug: one.body.product.slug } },
      );
      expect(bySlug.errors).toBeUndefined();
      expect(bySlug.data!.product).toEqual(productFields(one.body.product));
      expect(bySlug.data!.productBySlug).toEqual(productFields(one.body.product));
    });

    it('a cart: adding to it through GraphQL is the cart REST then reads, and a checkout from it', async () => {
      const visitor = await visitorToken(platform);
      const added = await graphql(
        platform,
        `mutation Add($request: JSON!) { addToCurrentCart(request: $request) {
           id currency lineItems { id quantity productName { original } price { amount } } } }`,
        { auth: visitor, variables: { request: { lineItems: [catalogLine(productIds[0]!, 2)] } } },
      );
      expect(added.errors).toBeUndefined();
      const rest = await cartCalls(platform, visitor).get();
      const cart = rest.body.cart;
      const read = await graphql(
        platform,
        '{ currentCart { id currency lineItems { id quantity productName { original } price { amount } } } }',
        { auth: visitor },
      );
      const expected = {
        id: cart.id,
        lineItems: cart.lineItems.map((line: any) => ({
          id: line.id,
          quantity: line.quantity,
          productName: { original: line.productName.original },
          price: { amount: line.price.amount },
        })),
        currency: cart.currency,
      };
      expect(added.data!.addToCurrentCart).toEqual(expected);
      expect(read.data!.currentCart).toEqual(expected);
      expect(expected.lineItems[0].quantity).toBe(2);

      const created = await graphql(
        platform,
        'mutation { createCheckoutFromCurrentCart(request: {channelType: "WEB"}) { checkoutId } }',
        { auth: visitor },
      );
      expect(created.errors).toBeUndefined();
      const checkoutId = created.data!.createCheckoutFromCurrentCart.checkoutId;
      const restCheckout = await call(
        platform,
        'GET',
        `/ecom/v1/checkouts/${checkoutId}`,
        undefined,
        visitor,
      );
      const checkout = await graphql(
        platform,
        'query C($id: ID!) { checkout(id: $id) { id cartId lineItems { id quantity } priceSummary { total { amount } } } }',
        { auth: visitor, variables: { id: checkoutId } },
      );
      expect(checkout.data!.checkout).toEqual({
        id: restCheckout.body.checkout.id,
        cartId: restCheckout.body.checkout.cartId,
        lineItems: restCheckout.body.checkout.lineItems.map((line: any) => ({
          id: line.id,
          quantity: line.quantity,
        })),
        priceSummary: { total: { amount: restCheckout.body.checkout.priceSummary.total.amount } },
      });
    });

    it('an order: the buyer reads theirs, the merchant searches them, as REST answers', async () => {
      const buyer = await visitorToken(platform);
      const orderId = await buy(platform, [{ productId: productIds[2]!, quantity: 1 }], { auth: buyer });
      const fields =
        'id number status paymentStatus lineItems { id quantity } priceSummary { total { amount } }';
      const project = (order: any) => ({
        id: order.id,
        number: order.number,
        status: order.status,
        paymentStatus: order.paymentStatus,
        lineItems: order.lineItems.map((line: any) => ({ id: line.id, quantity: line.quantity })),
        priceSummary: { total: { amount: order.priceSummary.total.amount } },
      });
      const rest = await call(platform, 'GET', `/ecom/v1/orders/${orderId}`, undefined, buyer);
      const mine = await graphql(platform, `query O($id: ID!) { order(id: $id) { ${fields} } }`, {
        auth: buyer,
        variables: { id: orderId },
      });
      expect(mine.errors).toBeUndefined();
      expect(mine.data!.order).toEqual(project(rest.body.order));

      const search = {
        search: { sort: [{ fieldName: 'number', order: 'DESC' }], cursorPaging: { limit: 5 } },
      };
      const restSearch = await call(platform, 'POST', '/ecom/v1/orders/search', search, platform.adminApiKey);
      const searched = await graphql(
        platform,
        `query S($request: JSON) { searchOrders(request: $request) { orders { ${fields} } metadata { count hasNext } } }`,
        { auth: platform.adminApiKey, variables: { request: search } },
      );
      expect(searched.errors).toBeUndefined();
      expect(searched.data!.searchOrders.orders).toEqual(restSearch.body.orders.map(project));
      expect(searched.data!.searchOrders.orders.map((order: any) => order.id)).toContain(orderId);
    });

    it('members: the signed-in member, and the list as the merchant and as a visitor see it', async () => {
      const visitor = await visitorToken(platform);
      const member = await signUpFrom(platform, visitor, uniqueEmail('graph'));
      const restMine = await call(platform, 'GET', '/members/v1/members/my', undefined, member);
      const mine = await graphql(
        platform,
        '{ myMember { id loginEmail contactId status profile { nickname slug } } }',
        {
          auth: member,
        },
      );
      expect(mine.errors).toBeUndefined();
      expect(mine.data!.myMember).toMatchObject({
        id: restMine.body.member.id,
        status: restMine.body.member.status,
      });

      for (const auth of [platform.adminApiKey, visitor]) {
        const rest = await call(platform, 'POST', '/members/v1/members/query', { fieldsets: ['FULL'] }, auth);
        const listed = await graphql(
          platform,
          '{ members(request: {fieldsets: ["FULL"]}) { members { id loginEmail profile { nickname } } metadata { total } } }',
          { auth },
        );
        expect(listed.errors).toBeUndefined();
        expect(listed.data!.members.members).toEqual(
          rest.body.members.map((m: any) => ({
            id: m.id,
            loginEmail: m.loginEmail ?? null,
            profile: { nickname: m.profile?.nickname ?? null },
          })),
        );
        expect(listed.data!.members.metadata.total).toBe(rest.body.metadata.total);
      }
    });
  });

  it("the hosted client's client.graphql and @cartwheel/sdk's answer a visitor's query alike", async () => {
    const query = 'query P($request: JSON) { products(request: $request) { products { id name } } }';
    const variables = { request: { query: { sort: [{ fieldName: 'name', order: 'ASC' }] } } };
    const removeRoute = await routeHostedApiTo(platform.url);
    try {
      const hosted = createClient({ modules: {}, auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }) });
      // its declaration names two parameters; its code takes the options the documentation gives
      const graphqlWithOptions = hosted.graphql as (
        query: string,
        variables: unknown,
        options: { apiVersion: string },
      ) => ReturnType<typeof hosted.graphql>;
      const answer = await graphqlWithOptions(query, variables, { apiVersion: 'alpha' });
      const cartwheel = createCartwheelClient({
        host: platform.url,
        auth: CartwheelOAuth({ clientId: TEST_CLIENT_ID }),
        modules: {},
      });
      const ours = await cartwheel.graphql<{ products: { products: Array<{ id: string; name: string }> } }>(
        query,
        variables,
        { apiVersion: 'alpha' },
      );
      expect(answer.errors).toBeUndefined();
      expect(answer.data).toEqual(ours.data);
      expect(ours.data.products.products.map((product) => product.name)).toEqual([
        'Graph Cap',
        'Graph Mug',
        'Graph Tee',
      ]);
      // a field the visitor may not read comes back as GraphQL's error, to both
      const refused = await cartwheel.graphql('{ searchOrders { orders { id } } myMember { id } }');
      expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['PERMISSION_DENIED']);
    } finally {
      await removeRoute();
    }
  });

  describe('a caller reads through GraphQL no more than REST gives them', () => {
    it("a visitor is refused another shopper's order, the merchant's calls and a member's own", async () => {
      const buyer = await visitorToken(platform);
      const orderId = await buy(platform, [{ productId: productIds[0]!, quantity: 1 }], { auth: buyer });
      const stranger = await visitorToken(platform);
      const rest = await call(platform, 'GET', `/ecom/v1/orders/${orderId}`, undefined, stranger);
      expect(rest.status).toBe(404);
      const answer = await graphql(
        platform,
        'query O($id: ID!) { order(id: $id) { id buyerInfo { email } } }',
        {
          auth: stranger,
          variables: { id: orderId },
        },
      );
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ order: null });
      expect(codes(answer)).toEqual(['NOT_FOUND']);
      expect(answer.errors![0]!.path).toEqual(['order']);
      // asked again, the query runs compiled (graphql-jit): the refusal keeps its form
      for (let again = 0; again < 3; again++) {
        const compiled = await graphql(
          platform,
          'query O($id: ID!) { order(id: $id) { id buyerInfo { email } } }',
          {
            auth: stranger,
            variables: { id: orderId },
          },
        );
        expect(compiled.errors).toEqual(answer.errors);
      }

      const restMine = await call(platform, 'GET', '/members/v1/members/my', undefined, stranger);
      const mine = await graphql(platform, '{ myMember { id } }', { auth: stranger });
      expect(restMine.status).toBe(403);
      expect(codes(mine)).toEqual(['PERMISSION_DENIED']);

      // with no token at all, the cart is refused as REST refuses it, and the catalog still answers
      const anonymous = await graphql(platform, '{ currentCart { id } products { metadata { total } } }');
      expect((await cartCalls(platform, '').get()).status).toBe(401);
      expect(codes(anonymous)).toEqual(['UNAUTHENTICATED']);
      expect(anonymous.data!.products.metadata.total).toBeGreaterThanOrEqual(3);

      // a visitor's search lists only what REST lists them: their own orders, none here
      const searched = await graphql(platform, '{ searchOrders { orders { id } } }', { auth: stranger });
      const restSearch = await call(platform, 'POST', '/ecom/v1/orders/search', {}, stranger);
      expect(searched.data!.searchOrders.orders).toEqual(
        restSearch.body.orders.map((o: any) => ({ id: o.id })),
      );
      expect(searched.data!.searchOrders.orders).toEqual([]);
    });

    it("a structured argument is checked by the REST body's schema, with its field violations", async () => {
      const visitor = await visitorToken(platform);
      const answer = await graphql(
        platform,
        'mutation { addToCurrentCart(request: {lineItems: [{quantity: 1}], surprise: true}) { id } }',
        { auth: visitor },
      );
      expect(codes(answer)).toEqual(['INVALID_ARGUMENT']);
      const violations = answer.errors![0]!.extensions!.details.validationError.fieldViolations;
      expect(violations[0].field).toMatch(/^request/);
    });

    it('introspection is for staff, the admin key and apps, not for visitors', async () => {
      const visitor = await visitorToken(platform);
      const refused = await graphql(platform, '{ __schema { queryType { name } } }', { auth: visitor });
      expect(codes(refused)).toEqual(['PERMISSION_DENIED']);
      expect(applicationCodes(refused)).toEqual(['INTROSPECTION_NOT_ALLOWED']);
      const allowed = await graphql(platform, '{ __schema { queryType { name } } }', {
        auth: platform.adminApiKey,
      });
      expect(allowed.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
      // the same text, kept parsed, is still refused to the next visitor
      expect(
        codes(await graphql(platform, '{ __schema { queryType { name } } }', { auth: visitor })),
      ).toEqual(['PERMISSION_DENIED']);
    });
  });

  describe('hostile queries are refused quickly while the platform answers others', () => {
    const timed = async (query: string, body?: unknown) => {
      const started = performance.now();
      const [answer, other] = await Promise.all([
        graphql(platform, query, body === undefined ? {} : { body }),
        graphql(platform, '{ products { metadata { total } } }'),
      ]);
      const elapsed = performance.now() - started;
      expect(other.data!.products.metadata.total).toBeGreaterThanOrEqual(3);
      return { answer, elapsed };
    };

    it('a query 100 levels deep', async () => {
      const deep = `{ ${'products { products { '.repeat(50)}id${' } }'.repeat(50)} }`;
      const { answer, elapsed } = await timed(deep);
      expect(answer.status).toBe(200);
      expect(applicationCodes(answer)).toEqual(['QUERY_TOO_DEEP']);
      expect(elapsed).toBeLessThan(2_000);
    });

    it('10,000 aliases', async () => {
      const aliases = `{ ${Array.from({ length: 10_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
      const { answer, elapsed } = await timed(aliases);
      expect(answer.errors?.length).toBe(1);
      expect(codes(answer)).toEqual(['INVALID_ARGUMENT']);
      expect(elapsed).toBeLessThan(2_000);
      // within the token limit, the alias cap names itself
      const some = `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
      expect(applicationCodes((await timed(some)).answer)).toEqual(['TOO_MANY_ALIASES']);
    });

    it('a cyclic fragment', async () => {
      const cyclic =
        '{ products { ...A } } fragment A on ProductPage { ...B } fragment B on ProductPage { ...A }';
      const { answer, elapsed } = await timed(cyclic);
      expect(answer.status).toBe(200);
      expect(codes(answer)).toContain('INVALID_ARGUMENT');
      expect(answer.errors!.map((e) => e.message).join(' ')).toMatch(/cannot spread fragment/i);
      expect(elapsed).toBeLessThan(2_000);
    });

    it('a 5 MB query', async () => {
      const huge = `{ ${'products { metadata { total } } '.repeat(160_000)} }`;
      expect(huge.length).toBeGreaterThan(5_000_000);
      const { answer, elapsed } = await timed(huge);
      expect(answer.status).toBe(400);
      expect(codes(answer)).toEqual(['INVALID_ARGUMENT']);
      expect(answer.errors![0]!.extensions!.details.validationError.fieldViolations[0].field).toBe('query');
      expect(elapsed).toBeLessThan(2_000);
    });

    it('a batch answers a list, up to its cap', async () => {
      const one = { query: '{ products { metadata { total } } }' };
      const batch = await fetch(`${platform.url}/graphql/alpha`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([one, one]),
      });
      const answers = await batch.json();
      expect(answers).toHaveLength(2);
      expect(answers[0].data.products.metadata.total).toBeGreaterThanOrEqual(3);
      const tooMany = await graphql(platform, '', { body: Array.from({ length: 11 }, () => one) });
      expect(tooMany.status).toBe(400);
      expect(codes(tooMany)).toEqual(['INVALID_ARGUMENT']);
    });

    it("a query that is not GraphQL is a parse failure in GraphQL's form, never a 500", async () => {
      const answer = await graphql(platform, '{ products { ');
      expect(answer.status).toBe(200);
      expect(applicationCodes(answer)).toEqual(['GRAPHQL_PARSE_FAILED']);
    });
  });

  it("a visitor's product query is kept with the catalog's reads: the admin key still reads hidden products, and a change shows at the next query", async () => {
    const visitor = await visitorToken(platform);
    const hidden = await createProduct(platform, { ...plain('Graph Hidden', 13), visible: false });
    const query = 'query Kept($request: JSON) { products(request: $request) { products { id name } } }';
    const variables = {
      request: { query: { sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 50 } } },
    };
    const names = (answer: GraphQLAnswer) =>
      (answer.data!.products.products as Array<{ name: string }>).map((product) => product.name);
    const first = await graphql(platform, query, { auth: visitor, variables });
    expect(first.errors).toBeUndefined();
    expect(names(first)).toContain('Graph Mug');
    expect(names(first)).not.toContain('Graph Hidden');
    expect(await graphql(platform, query, { auth: visitor, variables })).toEqual(first);
    // the same text from the admin key is the admin's own read, never the visitor's kept answer
    expect(names(await graphql(platform, query, { auth: platform.adminApiKey, variables }))).toContain(
      'Graph Hidden',
    );
    expect(names(await graphql(platform, query, { variables }))).toEqual(names(first));

    const renamed = await admin(platform).patch(`/stores/v1/products/${productIds[0]}`, {
      product: { id: productIds[0], name: 'Graph Mug Renamed' },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(names(await graphql(platform, query, { auth: visitor, variables }))).toContain(
      'Graph Mug Renamed',
    );
    await admin(platform).patch(`/stores/v1/products/${productIds[0]}`, {
      product: { id: productIds[0], name: 'Graph Mug' },
    });
    await admin(platform).delete(`/stores/v1/products/${hidden.id}`);
    expect(names(await graphql(platform, query, { auth: visitor, variables }))).toEqual(names(first));
  });
});
