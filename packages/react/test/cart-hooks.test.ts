import {
  ApplicationError,
  type Cart,
  createClient,
  currentCart,
  OAuthStrategy,
  type Product,
  products,
  redirects,
  STORES_APP_ID,
} from '@cartwheel/sdk';
import { MutationObserver, type MutationObserverOptions, type QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../../platform/test/support/platform.ts';
import {
  cartItemCount,
  cartMutations,
  cartQueries,
  cartwheelKeys,
  createCartwheelQueryClient,
  startCheckoutMutation,
} from '../src/index.ts';

/** A shopper's client whose calls to the platform are counted (token requests left out). */
function shopperClient(host: string) {
  const calls: string[] = [];
  const client = createClient({
    host,
    auth: OAuthStrategy({ clientId: TEST_CLIENT_ID, host }),
    modules: { currentCart, redirects, products },
    fetch: (input, init) => {
      const url = new URL(String(input));
      if (!url.pathname.startsWith('/oauth2/')) calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      return fetch(input, init);
    },
  });
  return { client, calls };
}

type ShopperClient = ReturnType<typeof shopperClient>['client'];

/** Runs a cart mutation the way a hook does, without React. */
function run<TData, TVariables>(
  queryClient: QueryClient,
  options: MutationObserverOptions<TData, Error, TVariables>,
  variables: NoInfer<TVariables>,
): Promise<TData> {
  return new MutationObserver(queryClient, options).mutate(variables);
}

function lineOf(product: Product, quantity: number) {
  const variantId = product.variants?.[0]?.id;
  return {
    quantity,
    catalogReference: {
      appId: STORES_APP_ID,
      catalogItemId: product.id,
      ...(variantId ? { options: { variantId } } : {}),
    },
  };
}

describe.each(DIALECTS)('cart hooks against the platform on %s', (dialect) => {
  let platform: TestPlatform;
  let mug: Product;
  let poster: Product;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, seedDemo: true });
    const { client } = shopperClient(platform.url);
    const page = await client.products.queryProducts(
      { filter: { name: { $in: ['Enamel Camp Mug', 'City Lights Poster'] } } },
      { includeVariants: true },
    );
    mug = page.items.find((product) => product.name === 'Enamel Camp Mug')!;
    poster = page.items.find((product) => product.name === 'City Lights Poster')!;
    expect(mug && poster).toBeTruthy();
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  function shopper(): { client: ShopperClient; calls: string[]; queryClient: QueryClient } {
    return { ...shopperClient(platform.url), queryClient: createCartwheelQueryClient() };
  }

  it('a shopper with no tokens yet has no cart: null, without asking the platform (no 404 to log)', async () => {
    const { client, calls, queryClient } = shopper();
    const cart = await queryClient.fetchQuery(cartQueries.current(client));
    expect(cart).toBeNull();
    expect(cartItemCount(cart)).toBe(0);
    expect(calls).toEqual([]);
  });

  it('a visitor without a cart has the empty cart null, read once: the 404 is not retried', async () => {
    const { client, calls, queryClient } = shopper();
    await client.products.queryProducts({ paging: { limit: 1 } }); // the visitor's tokens
    calls.length = 0;
    const cart = await queryClient.fetchQuery(cartQueries.current(client));
    expect(cart).toBeNull();
    expect(calls).toEqual(['GET /ecom/v1/carts/current']);
    expect(await queryClient.fetchQuery(cartQueries.estimate(client))).toBeNull();
  });

  it('adding to the cart caches the cart the platform answered, without reading it again', async () => {
    const { client, calls, queryClient } = shopper();
    await queryClient.fetchQuery(cartQueries.current(client));
    calls.length = 0;

    const answered = await run(queryClient, cartMutations.addToCart(client, queryClient), [
      lineOf(mug, 2),
      lineOf(poster, 1),
    ]);

    expect(calls).toEqual(['POST /ecom/v1/carts/current/add-to-cart']);
    const cached = queryClient.getQueryData<Cart | null>(cartwheelKeys.cart.current);
    expect(cached).toEqual(answered.cart);
    expect(cartItemCount(cached)).toBe(3);
    expect(cached?.lineItems?.map((line) => line.productName?.original).sort()).toEqual([
      'City Lights Poster',
      'Enamel Camp Mug',
    ]);
  });

  it("a change makes the cached estimates stale, and the next read answers the platform's new totals", async () => {
    const { client, queryClient } = shopper();
    const { cart } = await run(queryClient, cartMutations.addToCart(client, queryClient), [lineOf(mug, 1)]);
    const before = await queryClient.fetchQuery(cartQueries.estimate(client));
    expect(before?.priceSummary?.subtotal?.amount).toBe('14.00');

    const mugLine = cart.lineItems?.[0]?.id as string;
    await run(queryClient, cartMutations.updateLineItemQuantity(client, queryClient), [
      { id: mugLine, quantity: 3 },
    ]);
    expect(queryClient.getQueryState(cartwheelKeys.cart.estimate({}))?.isInvalidated).toBe(true);
    expect(cartItemCount(queryClient.getQueryData(cartwheelKeys.cart.current))).toBe(3);

    const after = await queryClient.fetchQuery(cartQueries.estimate(client));
    expect(after?.priceSummary?.subtotal?.amount).toBe('42.00');
  });

  it('removing the last line leaves an empty cart in the cache', async () => {
    const { client, queryClient } = shopper();
    const { cart } = await run(queryClient, cartMutations.addToCart(client, queryClient), [
      lineOf(poster, 1),
    ]);
    await run(queryClient, cartMutations.removeLineItems(client, queryClient), [
      cart.lineItems?.[0]?.id as string,
    ]);
    expect(cartItemCount(queryClient.getQueryData(cartwheelKeys.cart.current))).toBe(0);
  });

  it('an unknown coupon is refused with an application error and the cached cart stays as it was', async () => {
    const { client, queryClient } = shopper();
    const { cart } = await run(queryClient, cartMutations.addToCart(client, queryClient), [lineOf(mug, 1)]);
    const refused = await run(
      queryClient,
      cartMutations.applyCoupon(client, queryClient),
      'NO-SUCH-CODE',
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApplicationError);
    expect(queryClient.getQueryData(cartwheelKeys.cart.current)).toEqual(cart);
  });

  it('WELCOME10 applies to the cart, shows in its discounts, and comes off again', async () => {
    const { client, queryClient } = shopper();
    await run(queryClient, cartMutations.addToCart(client, queryClient), [lineOf(mug, 1)]);
    const applied = await run(queryClient, cartMutations.applyCoupon(client, queryClient), 'WELCOME10');
    expect(applied.appliedDiscounts?.map((discount) => discount.coupon?.code)).toContain('WELCOME10');
    expect(queryClient.getQueryData(cartwheelKeys.cart.current)).toEqual(applied);

    const removed = await run(queryClient, cartMutations.removeCoupon(client, queryClient), undefined);
    expect(removed.cart.appliedDiscounts?.some((discount) => discount.coupon)).toBeFalsy();
  });

  it("starting checkout sends the browser to the hosted checkout page, whose callbacks are this site's pages", async () => {
    const { client, calls, queryClient } = shopper();
    await run(queryClient, cartMutations.addToCart(client, queryClient), [lineOf(mug, 1)]);
    calls.length = 0;
    const sentTo: string[] = [];
    const fullUrl = await run(
      queryClient,
      startCheckoutMutation(client, { origin: 'https://shop.example', navigate: (url) => sentTo.push(url) }),
      {},
    );
    expect(calls).toEqual([
      'POST /ecom/v1/carts/current/create-checkout',
      'POST /_api/redirects-api/v1/redirect-session',
    ]);
    expect(sentTo).toEqual([fullUrl]);
    expect(fullUrl).toMatch(new RegExp(`^${platform.url}/auth/checkout\\?session=[\\w-]+`));
  });
});
