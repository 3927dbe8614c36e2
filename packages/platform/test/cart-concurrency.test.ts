import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { cartCalls, catalogLine, customLine, elevated } from './cart-calls.ts';
import { createProduct, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/** Many calls on one cart at the same moment, as a shopper's tabs and double clicks make them. */
describe.each(DIALECTS)('one cart under concurrent calls on %s', (dialect) => {
  let platform: TestPlatform;
  let mug: any;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    mug = await createProduct(platform, {
      name: 'Race Mug',
      productType: 'physical',
      priceData: { price: 3 },
    });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('loses no line when 100 add-to-cart calls arrive at once, the first of them creating the cart', async () => {
    // elevated (the admin key after the token), so custom lines may be added to the shopper's cart
    const cart = cartCalls(platform, elevated(await visitorToken(platform)));
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        index % 2 === 0
          ? cart.add({ lineItems: [catalogLine(mug.id, 1)] })
          : cart.add({ customLineItems: [customLine(`Card ${index}`, '1')] }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200));
    const ids = new Set(answers.map((answer) => answer.body.cart.id));
    expect(ids.size).toBe(1);

    const lines = (await cart.get()).body.cart.lineItems;
    // 50 adds of one item make one line of 50; 50 custom lines stay 50 lines
    expect(lines).toHaveLength(51);
    expect(lines.find((line: any) => line.catalogReference?.catalogItemId === mug.id)?.quantity).toBe(50);
    expect(new Set(lines.map((line: any) => line.productName.original)).size).toBe(51);

    const events = await readEvents(platform.services.database.db, { entityId: [...ids][0] });
    expect(events.filter((event) => event.slug === 'created')).toHaveLength(1);
    expect(events.filter((event) => event.slug === 'updated')).toHaveLength(99);
  });

  it('keeps every add when 20 shoppers each add 5 times at once (writes that share a commit)', async () => {
    const shoppers = await Promise.all(
      Array.from({ length: 20 }, async () => cartCalls(platform, await visitorToken(platform))),
    );
    for (const cart of shoppers) await cart.add({ lineItems: [catalogLine(mug.id, 1)] });
    const answers = await Promise.all(
      shoppers.flatMap((cart) =>
        Array.from({ length: 5 }, () => cart.add({ lineItems: [catalogLine(mug.id, 1)] })),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200));
    for (const cart of shoppers) {
      const got = (await cart.get()).body.cart;
      expect(got.lineItems.map((line: any) => line.quantity)).toEqual([6]);
      const events = await readEvents(platform.services.database.db, { entityId: got.id });
      expect(events.map((event) => event.slug)).toEqual(['created', ...Array(5).fill('updated')]);
    }
  });

  it('applies concurrent quantity changes and removals one after another', async () => {
    const cart = cartCalls(platform, elevated(await visitorToken(platform)));
    const added = await cart.add({
      customLineItems: Array.from({ length: 20 }, (_, index) => customLine(`Line ${index}`, '1')),
    });
    const lineIds: string[] = added.body.cart.lineItems.map((line: any) => line.id);
    const answers = await Promise.all([
      ...lineIds.slice(0, 10).map((id, index) => cart.setQuantities([{ id, quantity: index + 2 }])),
      ...lineIds.slice(10).map((id) => cart.removeLines([id])),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const lines = (await cart.get()).body.cart.lineItems;
    expect(lines.map((line: any) => [line.id, line.quantity])).toEqual(
      lineIds.slice(0, 10).map((id, index) => [id, index + 2]),
    );
  });
});
