import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/oauth/tokens.ts';
import { call } from './catalog-http.ts';
import {
  ADDRESS,
  applicationCode,
  CARDS,
  checkoutSession,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
  violatedFields,
} from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The checkout redirect session and the hosted page's own calls: an unguessable token stored hashed,
 * good for a day, naming one checkout and its callbacks; the page fills in the buyer's details and the
 * order's refusals name the page's fields.
 */
describe.each(DIALECTS)('the hosted checkout page session, on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Session Bowl', 18, 20)).id;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('an ecomCheckout redirect session leads to the hosted page with a token stored only as its hash, for 24 hours', async () => {
    const shopper = await shopperCheckout(platform, [{ productId, quantity: 1 }]);
    const answer = await call(
      platform,
      'POST',
      '/_api/redirects-api/v1/redirect-session',
      {
        ecomCheckout: { checkoutId: shopper.checkoutId },
        callbacks: { postFlowUrl: 'http://shop.test/cart' },
      },
      shopper.auth,
    );
    expect(answer.status).toBe(200);
    const url = new URL(answer.body.redirectSession.fullUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${platform.url}/auth/checkout`);
    const token = url.searchParams.get('session') as string;
    expect(token.length).toBeGreaterThanOrEqual(40);

    const rows = await platform.services.database.db.selectFrom('checkout_sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    const row = rows.find((candidate) => candidate.token_hash === sha256(token))!;
    expect(row.checkout_id).toBe(shopper.checkoutId);
    const lifetime = new Date(row.expires_at).getTime() - new Date(row.created_at).getTime();
    expect(lifetime).toBe(24 * 60 * 60 * 1000);

    // without a thank-you page the order goes back to the post-flow page
    const paid = await pageCalls(platform, token).pay('no-thanks-page', CARDS.approved);
    expect(paid.body.redirectUrl).toBe(`http://shop.test/cart?orderId=${paid.body.orderId}`);

    // a day later the token opens nothing
    await platform.services.database.db
      .updateTable('checkout_sessions')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('token_hash', '=', sha256(token))
      .execute();
    expect(applicationCode(await pageCalls(platform, token).session())).toBe('CHECKOUT_SESSION_NOT_FOUND');
  });

  it('refuses a session without a checkout id or with a callback that is not an absolute URL', async () => {
    const shopper = await shopperCheckout(platform, [{ productId, quantity: 1 }]);
    const send = (body: unknown) =>
      call(platform, 'POST', '/_api/redirects-api/v1/redirect-session', body, shopper.auth);
    expect(violatedFields(await send({ ecomCheckout: {} }))).toEqual(['ecomCheckout.checkoutId']);
    expect(
      violatedFields(
        await send({
          ecomCheckout: { checkoutId: shopper.checkoutId },
          callbacks: { thankYouPageUrl: 'javascript:alert(1)' },
        }),
      ),
    ).toEqual(['callbacks.thankYouPageUrl']);
  });

  it("the page's update fills in the buyer's details; a pay without them names the page's fields", async () => {
    const shopper = await shopperCheckout(platform, [{ productId, quantity: 2 }], { details: false });
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));

    const missing = await page.pay('too-early', CARDS.approved);
    expect(missing.status).toBe(400);
    expect(violatedFields(missing)).toEqual(
      expect.arrayContaining(['email', 'billingAddress', 'shippingAddress', 'selectedShippingOption.code']),
    );

    const partly = await page.update({
      email: 'page@example.com',
      shippingAddress: { country: 'US', city: '' },
    });
    expect(partly.status).toBe(200);
    const stillMissing = await page.pay('still-early', CARDS.approved);
    expect(violatedFields(stillMissing)).toEqual(
      expect.arrayContaining(['shippingAddress.city', 'shippingAddress.addressLine']),
    );

    const updated = await page.update({
      shippingAddress: ADDRESS,
      billingSameAsShipping: true,
      selectedShippingOption: { code: 'standard' },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.checkout.billingInfo.address.city).toBe('New York');
    expect(updated.body.checkout.buyerInfo.email).toBe('page@example.com');
    expect(updated.body.checkout.priceSummary.total.amount).toBe('41.00');

    const badType = await page.update({ billingSameAsShipping: 'yes' });
    expect(violatedFields(badType)).toEqual(['billingSameAsShipping']);
    const noCard = await page.payWith({ attemptKey: 'no-card' });
    expect(violatedFields(noCard)).toEqual(['card.number']);

    const paid = await page.pay('ready', CARDS.approved);
    expect(paid.body.status).toBe('APPROVED');
    const late = await page.update({ email: 'late@example.com' });
    expect(applicationCode(late)).toBe('CHECKOUT_ALREADY_COMPLETED');
  });
});
