import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddToCartBody } from '../src/carts/schemas.ts';
import { CartService } from '../src/carts/service.ts';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { createProduct, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The cart's fast path (carts/fast-path.ts) answers a change from the row this process remembers. An
 * error of its own must not be swallowed: it is logged with the cart's id and counted, and the change
 * is made the normal way, answering exactly what it would have.
 */
describe.each(DIALECTS)('the cart fast path on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await platform?.stop();
  });

  it('logs and counts its own error, and the change is still made and answered right', async () => {
    const product = await createProduct(platform, { name: 'Fast Path Mug', priceData: { price: 12.5 } });
    // the cart service itself, in this process: its fast path is what the error is forced into
    const { carts, pricing, catalog, database } = platform.services;
    const owner = { kind: 'visitor' as const, visitorId: `fast-path-${dialect}-${Date.now()}` };
    const add = (quantity: number) =>
      carts.addToCart(owner, { lineItems: [catalogLine(product.id, quantity)] } as AddToCartBody);
    const cartId = (JSON.parse(await add(1)) as { cart: { id: string } }).cart.id;
    // a read remembers the cart's row and answer: the next change starts from them
    await carts.currentJson(owner);

    const failuresBefore = carts.fastPath.failures;
    const warn = vi.spyOn(carts.fastPath.log, 'warn');
    // the next price asked for fails once: the fast path prices the change first, before it writes
    const broken = new Error('pricing broke on the fast path');
    const priceToKeep = pricing.priceToKeep.bind(pricing);
    const failOnce = vi.spyOn(pricing, 'priceToKeep').mockRejectedValueOnce(broken);
    failOnce.mockImplementation(priceToKeep);

    const answer = JSON.parse(await add(2));
    expect(answer.cart.id).toBe(cartId);
    expect(answer.cart.lineItems).toHaveLength(1);
    expect(answer.cart.lineItems[0]).toMatchObject({ quantity: 3, lineItemPrice: { amount: '37.50' } });
    expect(carts.fastPath.failures).toBe(failuresBefore + 1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith({ cartId, err: broken }, expect.stringContaining('fast path'));
    failOnce.mockRestore();
    warn.mockRestore();

    // what was written is what was answered: a service remembering nothing reads and prices it afresh
    const fresh = new CartService(database, { pricing, catalog, log: carts.fastPath.log });
    expect(await fresh.currentJson(owner)).toBe(JSON.stringify(answer));
    // and the change after it takes the fast path again, without error
    expect(JSON.parse(await add(1)).cart.lineItems[0].quantity).toBe(4);
    expect(carts.fastPath.failures).toBe(failuresBefore + 1);
  });

  it('does not count a change the cart refuses: the normal path refuses it', async () => {
    const product = await createProduct(platform, { name: 'Fast Path Bowl', priceData: { price: 3 } });
    const cart = cartCalls(platform, await visitorToken(platform));
    expect((await cart.add({ lineItems: [catalogLine(product.id, 1)] })).status).toBe(200);
    const failuresBefore = platform.services.carts.fastPath.failures;
    const refused = await cart.add({ lineItems: [catalogLine('no-such-product', 1)] });
    expect(refused.status).toBe(400);
    expect(refused.body.details?.applicationError?.code).toBe('PRODUCT_NOT_FOUND');
    expect(platform.services.carts.fastPath.failures).toBe(failuresBefore);
    expect((await cart.get()).body.cart.lineItems).toHaveLength(1);
  });
});
