import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls } from './cart-calls.ts';
import {
  applicationCode,
  CARDS,
  checkoutSession,
  gatewayCharges,
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
});
