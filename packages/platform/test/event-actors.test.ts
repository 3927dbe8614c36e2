import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { createProduct, visitorToken } from './catalog-http.ts';
import { as, claimsOf, createKey, createRole, OWNER_ENV, ownerToken, staffMember } from './staff-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Every event names who caused it (the outbox's actor columns): the visitor, member, staff member or
 * API key whose call made the change, the admin key, or the platform itself for background work.
 */
describe.each(DIALECTS)('who caused each event, on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, env: OWNER_ENV });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const eventsOf = (entityId: string) => readEvents(platform.services.database.db, { entityId });

  it("a visitor's add to cart names the visitor", async () => {
    const product = await createProduct(platform, {
      name: 'Actor Mug',
      productType: 'physical',
      priceData: { price: 9 },
    });
    const added = await cartCalls(platform, await visitorToken(platform)).add({
      lineItems: [catalogLine(product.id, 1)],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const cart = added.body.cart;
    const events = await eventsOf(cart.id);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events)
      expect(event.actor).toEqual({ type: 'VISITOR', id: cart.buyerInfo.visitorId });
  });

  it('a staff member’s, an API key’s and the admin key’s catalog changes name each of them', async () => {
    const owner = await ownerToken(platform);
    const staff = await staffMember(
      platform,
      owner,
      await createRole(platform, owner, 'Catalog', ['products.manage']),
      'catalog',
    );
    const key = await createKey(platform, owner, ['products.manage']);
    const create = async (auth: string, name: string) => {
      const answer = await as(platform, auth).post('/stores/v1/products', {
        product: { name, productType: 'physical', priceData: { price: 5 } },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const [created] = (await eventsOf(answer.body.product.id)).filter(
        (event) => event.entity === 'product',
      );
      expect(created).toMatchObject({ slug: 'created', payload: { entity: { name } } });
      return created!.actor;
    };
    // a staff member acts as their identity (the member id their token carries)
    expect(await create(staff.token, 'By Staff')).toEqual({ type: 'STAFF', id: claimsOf(staff.token).mid });
    expect(await create(key.key, 'By Key')).toEqual({ type: 'API_KEY', id: key.id });
    expect(await create(platform.adminApiKey, 'By Admin Key')).toEqual({ type: 'ADMIN_KEY', id: null });
  });

  it('the catalog and the store settings announce their changes, in the transaction of each', async () => {
    const api = as(platform, platform.adminApiKey);
    const kinds = async (entityId: string) =>
      (await eventsOf(entityId)).map((event) => `${event.entity} ${event.slug}`);

    const product = await createProduct(platform, {
      name: 'Evented',
      productType: 'physical',
      priceData: { price: 4 },
    });
    expect(
      (await api.patch(`/stores/v1/products/${product.id}`, { product: { name: 'Renamed' } })).status,
    ).toBe(200);
    const restock = await api.patch(`/stores/v1/products/${product.id}/variants`, {
      variants: [{ variantIds: [product.variants[0].id], price: 6, stock: { inStock: false } }],
    });
    expect(restock.status, JSON.stringify(restock.body)).toBe(200);
    expect((await api.delete(`/stores/v1/products/${product.id}`)).status).toBe(200);
    expect(await kinds(product.id)).toEqual([
      'product created',
      'inventory updated',
      'product updated',
      'product updated',
      'product variants_changed',
      'inventory updated',
      'product deleted',
    ]);

    const collection = (await api.post('/stores/v1/collections', { collection: { name: 'Evented' } })).body
      .collection;
    expect(
      (await api.patch(`/stores/v1/collections/${collection.id}`, { collection: { name: 'Renamed' } }))
        .status,
    ).toBe(200);
    expect((await api.delete(`/stores/v1/collections/${collection.id}`)).status).toBe(200);
    expect(await kinds(collection.id)).toEqual([
      'collection created',
      'collection updated',
      'collection deleted',
    ]);

    const rule = (
      await api.post('/ecom/v1/discount-rules', {
        discountRule: {
          name: 'Evented',
          active: true,
          discounts: { values: [{ discountType: 'PERCENTAGE', percentage: 5, targetType: 'ENTIRE_CART' }] },
        },
      })
    ).body.discountRule;
    expect(
      (await api.patch(`/ecom/v1/discount-rules/${rule.id}`, { discountRule: { name: 'Renamed' } })).status,
    ).toBe(200);
    expect((await api.delete(`/ecom/v1/discount-rules/${rule.id}`)).status).toBe(200);
    expect(await kinds(rule.id)).toEqual([
      'discountRule created',
      'discountRule updated',
      'discountRule deleted',
    ]);

    const settings = await api.patch('/ecom/v1/checkout-settings', {
      checkoutSettings: { checkoutBrand: { header: { logo: { size: 'SMALL', alignment: 'SIDE' } } } },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const [updated] = (await eventsOf('checkout-settings')).slice(-1);
    expect(updated).toMatchObject({
      entity: 'checkoutSettings',
      slug: 'updated',
      payload: { entity: settings.body.checkoutSettings },
      actor: { type: 'ADMIN_KEY', id: null },
    });
  });
});
