import { orders } from '@wix/ecom';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { products } from '@wix/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder, shipToUs, stockedProduct } from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { as, createKey, OWNER_ENV, ownerToken } from './staff-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The hosted platform's own client, unchanged, as a merchant's app holding a scoped API key the owner
 * made (issue 21): what the key's permissions allow works, what they do not is refused, and a revoked
 * key is refused.
 */
describe.each(DIALECTS)("the hosted platform's own client with a scoped API key, on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  let orderId: string;
  let owner: string;
  const app = (apiKey: string) =>
    createClient({
      modules: { orders, products },
      auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }),
    });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, env: OWNER_ENV });
    removeRoute = await routeHostedApiTo(platform.url);
    await shipToUs(platform);
    const teapot = await stockedProduct(platform, 'Scoped Teapot', 12, 10);
    orderId = (await placeOrder(platform, teapot.id)).orderId;
    owner = await ownerToken(platform);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it('a key holding orders.read reads orders, and may not write the catalog', async () => {
    const reader = app((await createKey(platform, owner, ['orders.read'])).key);
    const found: any = await reader.orders.searchOrders({ cursorPaging: { limit: 10 } } as any);
    expect(found.orders.map((order: any) => order._id)).toEqual([orderId]);
    expect(((await reader.orders.getOrder(orderId)) as any)._id).toBe(orderId);
    await expect(
      reader.products.createProduct({ name: 'Nope', priceData: { price: 1 } }),
    ).rejects.toMatchObject({
      status: 403,
    });
  });

  it('a key holding products.manage writes the catalog, and may not read orders', async () => {
    const cataloguer = app((await createKey(platform, owner, ['products.manage'])).key);
    const { product } = await cataloguer.products.createProduct({
      name: 'Scoped Kettle',
      priceData: { price: 20 },
    });
    expect(product?.name).toBe('Scoped Kettle');
    await expect(cataloguer.orders.getOrder(orderId)).rejects.toMatchObject({ status: 403 });
    await expect(cataloguer.orders.searchOrders({} as any)).rejects.toMatchObject({ status: 403 });
  });

  it('a revoked key is refused', async () => {
    const { key, id } = await createKey(platform, owner, ['orders.read']);
    expect((await as(platform, owner).post(`/api/cartwheel/api-keys/${id}/revoke`)).status).toBe(200);
    await expect(app(key).orders.getOrder(orderId)).rejects.toMatchObject({ status: 401 });
  });
});
