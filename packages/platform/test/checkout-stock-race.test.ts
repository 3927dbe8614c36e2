import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { type Answer, createProduct, visitorToken } from './catalog-http.ts';
import {
  applicationCode,
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  expectBooksBalance,
  gatewayCharges,
  openStock,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
  stockOf,
} from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Stock is taken atomically with the order: two buyers racing for the last item get exactly one
 * order between them, the other a clear OUT_OF_STOCK and no charge; stock never goes below zero. A
 * 3-D Secure step holds its stock until it ends or its time runs out.
 */
describe.each(DIALECTS)('the last item, on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
  });
  afterAll(async () => {
    await platform?.stop();
  });
  // whatever a test did, every order's charge and every product's stock still add up
  afterEach(async () => {
    await expectBooksBalance(platform);
  });

  it('two buyers paying for the last item at once: one order, the other OUT_OF_STOCK and not charged', async () => {
    for (let round = 0; round < 4; round++) {
      const lastOne = await stockedProduct(platform, `Last Lamp ${round}`, 25, 1);
      const buyers = await Promise.all([
        shopperCheckout(platform, [{ productId: lastOne.id, quantity: 1 }]),
        shopperCheckout(platform, [{ productId: lastOne.id, quantity: 1 }]),
      ]);
      const pages = await Promise.all(
        buyers.map(async (buyer) =>
          pageCalls(platform, await checkoutSession(platform, buyer.auth, buyer.checkoutId)),
        ),
      );
      const chargesBefore = (await gatewayCharges(platform)).length;

      const answers = await Promise.all(pages.map((page) => page.pay(`race-${round}`, CARDS.approved)));

      const approved = answers.filter((answer) => answer.body?.status === 'APPROVED');
      const refused = answers.filter((answer) => answer.body?.status !== 'APPROVED');
      expect(approved, JSON.stringify(answers.map((answer) => answer.body))).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(applicationCode(refused[0]!)).toBe('OUT_OF_STOCK');
      expect(refused[0]!.body.details.applicationError.data.lineItemIds).toHaveLength(1);
      expect((await gatewayCharges(platform)).length).toBe(chargesBefore + 1);
      expect(await stockOf(platform, lastOne.id)).toBe(0);

      // the buyer who lost keeps their cart
      const loser = buyers[answers.indexOf(refused[0]!)]!;
      expect((await cartCalls(platform, loser.auth).get()).status).toBe(200);
    }
  });

  it('a pending 3-D Secure step holds the last item; once its time has run out the next buyer gets it', async () => {
    const lastOne = await stockedProduct(platform, 'Held Lamp', 25, 1);
    const holder = await shopperCheckout(platform, [{ productId: lastOne.id, quantity: 1 }]);
    const other = await shopperCheckout(platform, [{ productId: lastOne.id, quantity: 1 }]);
    const holderPage = pageCalls(platform, await checkoutSession(platform, holder.auth, holder.checkoutId));
    const otherPage = pageCalls(platform, await checkoutSession(platform, other.auth, other.checkoutId));

    const step = await holderPage.pay('hold', CARDS.threeDSecure);
    expect(step.body.status).toBe('REQUIRES_ACTION');
    const attemptId = new URL(step.body.actionUrl, platform.url).searchParams.get('attempt') as string;
    const blocked = await otherPage.pay('blocked', CARDS.approved);
    expect(applicationCode(blocked)).toBe('OUT_OF_STOCK');
    expect(await stockOf(platform, lastOne.id)).toBe(0);

    // fifteen minutes pass without the step being finished
    await platform.services.database.db
      .updateTable('checkout_attempts')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', attemptId)
      .execute();

    const bought = await otherPage.pay('after-hold', CARDS.approved);
    expect(bought.body.status, JSON.stringify(bought.body)).toBe('APPROVED');
    expect(await stockOf(platform, lastOne.id)).toBe(0);

    // the holder's late confirmation is refused: its time ran out and its stock went to another buyer
    const late = await holderPage.confirm(attemptId, true);
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(applicationCode(late)).toBe('AUTHENTICATION_EXPIRED');
    expect(await stockOf(platform, lastOne.id)).toBe(0);
  });

  it('ordering more than the stock holds is OUT_OF_STOCK naming the line', async () => {
    const few = await stockedProduct(platform, 'Few Cups', 4, 2);
    const shopper = await shopperCheckout(platform, [{ productId: few.id, quantity: 2 }]);
    // someone else buys one first
    const first = await shopperCheckout(platform, [{ productId: few.id, quantity: 1 }]);
    const firstPaid = await pageCalls(
      platform,
      await checkoutSession(platform, first.auth, first.checkoutId),
    ).pay('first', CARDS.approved);
    expect(firstPaid.body.status).toBe('APPROVED');

    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const refused = await page.pay('too-many', CARDS.approved);
    expect(applicationCode(refused)).toBe('OUT_OF_STOCK');
    const lineId = (await page.session()).body.checkout.lineItems[0].id;
    expect(refused.body.details.applicationError.data.lineItemIds).toEqual([lineId]);
    expect(await stockOf(platform, few.id)).toBe(1);
  });

  it('shoppers making random cart, checkout and payment calls at once leave the books balanced', async () => {
    const random = seeded(1);
    const pick = <T>(choices: readonly T[]): T => choices[Math.floor(random() * choices.length)]!;
    const lamp = await stockedProduct(platform, 'Walked Lamp', 19.99, 12);
    const jacket = await createProduct(platform, {
      name: 'Walked Jacket',
      productType: 'physical',
      priceData: { price: 45.5 },
      manageVariants: true,
      stock: { trackInventory: true, quantity: 3 },
      productOptions: [
        { name: 'Size', choices: ['S', 'M'].map((size) => ({ value: size, description: size })) },
        { name: 'Color', choices: ['Navy', 'Red'].map((color) => ({ value: color, description: color })) },
      ],
    });
    await openStock(platform, jacket.id);
    const sticker = await createProduct(platform, { name: 'Walked Sticker', priceData: { price: 1.25 } });
    // a line of one of them, the jacket's choices spelled as a shopper might
    const someLine = () => {
      const product = pick([lamp, jacket, sticker]);
      const quantity = 1 + Math.floor(random() * 3);
      if (product !== jacket) return catalogLine(product.id, quantity);
      const size = pick(['S', 'M', 's', ' m']);
      const color = pick(['Navy', 'RED', 'navy ', 'red']);
      return catalogLine(jacket.id, quantity, {
        options: pick([
          { Size: size, Color: color },
          { size, color },
        ]),
      });
    };

    const shoppers = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const auth = await visitorToken(platform);
        return {
          auth,
          cart: cartCalls(platform, auth),
          checkout: checkoutCalls(platform, auth),
          checkoutId: undefined as string | undefined,
          page: undefined as ReturnType<typeof pageCalls> | undefined,
          waiting: undefined as string | undefined,
        };
      }),
    );
    type Shopper = (typeof shoppers)[number];
    const steps: Record<string, (shopper: Shopper) => Promise<Answer | undefined>> = {
      add: (shopper) => shopper.cart.add({ lineItems: [someLine()] }),
      checkOut: async (shopper) => {
        const created = await shopper.cart.createCheckout({ channelType: 'WEB' });
        if (created.status !== 200) return created;
        shopper.checkoutId = created.body.checkoutId as string;
        shopper.page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
        shopper.waiting = undefined;
        return shopper.checkout.patch(shopper.checkoutId, buyerDetails());
      },
      change: async (shopper) => {
        if (!shopper.checkoutId) return undefined;
        const lines: Array<{ id: string }> =
          (await shopper.checkout.get(shopper.checkoutId)).body.checkout.lineItems ?? [];
        if (lines.length === 0) return undefined;
        return pick([
          () =>
            shopper.checkout.setQuantities(shopper.checkoutId!, [
              { id: pick(lines).id, quantity: 1 + Math.floor(random() * 3) },
            ]),
          () => shopper.checkout.add(shopper.checkoutId!, [someLine()]),
          () => shopper.page!.update({ email: pick(['ada@example.com', 'bea@example.com']) }),
        ])();
      },
      pay: async (shopper) => {
        if (!shopper.page) return undefined;
        const number = pick([CARDS.approved, CARDS.approved, CARDS.declined, CARDS.threeDSecure]);
        const paid = await shopper.page.pay(`walk-${random()}`, number);
        settled(shopper, paid);
        return paid;
      },
      confirm: async (shopper) => {
        if (!shopper.page || !shopper.waiting) return undefined;
        const confirmed = await shopper.page.confirm(shopper.waiting, random() < 0.7);
        settled(shopper, confirmed);
        return confirmed;
      },
      createOrder: (shopper) =>
        shopper.checkoutId ? shopper.checkout.createOrder(shopper.checkoutId) : Promise.resolve(undefined),
    };
    /** What a payment's answer leaves: a step waiting, or (paid) a shopper who starts a new cart. */
    function settled(shopper: Shopper, answer: Answer) {
      shopper.waiting =
        answer.body?.status === 'REQUIRES_ACTION'
          ? (new URL(answer.body.actionUrl, platform.url).searchParams.get('attempt') as string)
          : undefined;
      if (answer.body?.status === 'APPROVED') shopper.checkoutId = undefined;
    }
    /** The calls a shopper in this state might make next (some likelier than others). */
    const next = (shopper: Shopper) =>
      !shopper.checkoutId
        ? ['add', 'add', 'checkOut']
        : shopper.waiting
          ? ['confirm', 'confirm', 'change', 'change', 'pay', 'createOrder']
          : ['pay', 'pay', 'change', 'change', 'createOrder', 'add', 'checkOut'];
    for (let round = 0; round < 30; round++) {
      // each shopper's next call, drawn before any is made, then made at once
      const planned = shoppers.map((shopper) => [shopper, steps[pick(next(shopper))]!] as const);
      const answers = await Promise.all(planned.map(([shopper, step]) => step(shopper)));
      for (const answer of answers) {
        expect(answer?.status ?? 200, JSON.stringify(answer?.body)).toBeLessThan(500);
      }
    }
    // the books are checked after this test, as after every other
  });
});

/** A small seeded random number generator (mulberry32): the same walk on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
