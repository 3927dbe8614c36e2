import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrations.ts';
import { signInFrom, signUpFrom } from './cart-calls.ts';
import { admin, call, visitorToken } from './catalog-http.ts';
import {
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
} from './checkout-support.ts';
import { latestCode, mailbox, memberTokens, register, uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const PASSWORD = 'a long enough password 1';

/**
 * A guest buys, then makes an account: the orders bought with the account's email join it once the
 * email is proved, or at once when the very visitor who bought signs up (they could read them
 * already). Someone who merely registers the buyer's email from elsewhere gets nothing.
 */
describe.each(DIALECTS)('a guest’s orders after signing up, on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Guest Mug', 12, 1000)).id;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const verification = async (required: boolean) => {
    const answer = await admin(platform).patch('/api/cartwheel/identity-settings', {
      settings: { requireEmailVerification: required },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };

  /** A guest's order with `email`, paid on the hosted page: the guest's token and the order's id. */
  async function guestOrder(email: string, guest?: string): Promise<{ guest: string; orderId: string }> {
    const shopper = await shopperCheckout(platform, [{ productId, quantity: 1 }], {
      details: false,
      ...(guest ? { auth: guest } : {}),
    });
    await checkoutCalls(platform, shopper.auth).patch(shopper.checkoutId, buyerDetails(email));
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const paid = await page.pay(`pay-${shopper.checkoutId}`, CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    return { guest: shopper.auth, orderId: paid.body.orderId };
  }

  const readOrder = (orderId: string, auth: string) =>
    call(platform, 'GET', `/ecom/v1/orders/${orderId}`, undefined, auth);
  const listed = async (auth: string) =>
    (await call(platform, 'POST', '/ecom/v1/orders/search', { search: {} }, auth)).body.orders.map(
      (order: { id: string }) => order.id,
    );

  it('the guest who signs up with the order’s email keeps the order, on every device after', async () => {
    await verification(false);
    const email = uniqueEmail('guest');
    const { guest, orderId } = await guestOrder(email);

    const member = await signUpFrom(platform, guest, email);
    const read = await readOrder(orderId, member);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.order.buyerInfo.memberId).toBeTruthy();
    expect(await listed(member)).toEqual([orderId]);

    const elsewhere = await signInFrom(platform, await visitorToken(platform), email);
    expect((await readOrder(orderId, elsewhere)).status).toBe(200);
    expect(await listed(elsewhere)).toEqual([orderId]);
  });

  it('someone who registers the buyer’s email from elsewhere gets none of their orders; the buyer who proves it does', async () => {
    await verification(false);
    const email = uniqueEmail('victim');
    const { orderId } = await guestOrder(email);

    const intruder = await signUpFrom(platform, await visitorToken(platform), email);
    expect((await readOrder(orderId, intruder)).status).toBe(404);
    expect(await listed(intruder)).toEqual([]);
    const again = await signInFrom(platform, await visitorToken(platform), email);
    expect((await readOrder(orderId, again)).status).toBe(404);

    // the buyer takes the address back with the reset link mailed to it, which proves it theirs
    const visitor = await visitorToken(platform);
    await call(platform, 'POST', '/_api/iam/recovery/v1/send-email', { email }, visitor);
    const [reset] = (await mailbox(platform, email)).filter((message) => message.kind === 'PASSWORD_RESET');
    const link = new URL(/https?:\/\/\S+/.exec(reset?.text ?? '')?.[0] ?? 'http://none');
    const recovered = await call(
      platform,
      'POST',
      '/_api/iam/recovery/v1/recover',
      { recoveryToken: link.searchParams.get('token'), password: 'the buyer’s own password 2' },
      visitor,
    );
    expect(recovered.body.state, JSON.stringify(recovered.body)).toBe('SUCCESS');
    const buyer = (await memberTokens(platform, recovered.body.sessionToken)).access_token;
    expect((await readOrder(orderId, buyer)).status).toBe(200);
    expect(await listed(buyer)).toEqual([orderId]);
  });

  it('an account that verifies the email gets every guest order bought with it, from any browser', async () => {
    await verification(true);
    const email = uniqueEmail('verified');
    const before = await guestOrder(email);

    const visitor = await visitorToken(platform);
    const registered = await register(platform, visitor, email, PASSWORD);
    expect(registered.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    // registered, not yet verified: nothing joins
    expect(
      (await admin(platform).get(`/ecom/v1/orders/${before.orderId}`)).body.order.buyerInfo.memberId,
    ).toBe(undefined);
    const verified = await call(
      platform,
      'POST',
      '/_api/iam/verification/v1/auth/verify',
      { code: await latestCode(platform, email), stateToken: registered.body.stateToken },
      visitor,
    );
    expect(verified.body.state, JSON.stringify(verified.body)).toBe('SUCCESS');
    const member = (await memberTokens(platform, verified.body.sessionToken)).access_token;
    expect((await readOrder(before.orderId, member)).status).toBe(200);
    expect(await listed(member)).toEqual([before.orderId]);

    // bought as a guest again later, from yet another browser: it joins at the next sign-in
    const later = await guestOrder(email);
    const signedIn = await signInFrom(platform, await visitorToken(platform), email);
    expect(await listed(signedIn)).toEqual([later.orderId, before.orderId]);
    await verification(false);
  });

  it("an app's sign-on that merges the existing contact brings the guest's orders; one that does not, none", async () => {
    await verification(false);
    const merged = uniqueEmail('merged');
    const kept = uniqueEmail('kept-apart');
    const mergedOrder = await guestOrder(merged);
    await guestOrder(kept);
    const signOn = (email: string, mergeExistingContact: boolean) =>
      admin(platform).post('/_api/iam/authentication/v2/sign-on', {
        loginId: { email },
        mergeExistingContact,
      });

    const apart = await signOn(kept, false);
    expect(apart.status, JSON.stringify(apart.body)).toBe(200);
    expect(await listed((await memberTokens(platform, apart.body.sessionToken)).access_token)).toEqual([]);

    const joined = await signOn(merged, true);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const member = (await memberTokens(platform, joined.body.sessionToken)).access_token;
    expect(await listed(member)).toEqual([mergedOrder.orderId]);
  });

  it('a guest who signs up with another email still reads what they bought in that browser, and only there', async () => {
    await verification(false);
    const { guest, orderId } = await guestOrder(uniqueEmail('bought-as'));
    const account = uniqueEmail('signed-up-as');

    const member = await signUpFrom(platform, guest, account);
    expect((await readOrder(orderId, member)).status).toBe(200);
    // readable by id (the thank-you page), but not the account's: the history lists the account's own
    expect(await listed(member)).toEqual([]);

    const elsewhere = await signInFrom(platform, await visitorToken(platform), account);
    expect((await readOrder(orderId, elsewhere)).status).toBe(404);
    expect(await listed(elsewhere)).toEqual([]);
  });
});

describe.each(DIALECTS)('a guest’s order saved before buyer emails were kept apart, on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      dialect,
      async prepare(options) {
        const database = connectDatabase(options);
        try {
          await migrateTo(database.db, '0024_email_html_and_queue');
          const at = '2026-01-01T00:00:00.000Z';
          await (database.db as unknown as Kysely<any>)
            .insertInto('orders')
            .values({
              id: 'o-old',
              number: 10001,
              status: 'APPROVED',
              payment_status: 'PAID',
              fulfillment_status: 'NOT_FULFILLED',
              checkout_id: null,
              visitor_id: 'v-old',
              member_id: null,
              created_at: at,
              updated_at: at,
              doc: JSON.stringify({ buyerInfo: { visitorId: 'v-old', email: ' Old.Buyer@Example.com' } }),
              holds_stock: 0,
            })
            .execute();
        } finally {
          await database.close();
        }
      },
    });
  });
  afterAll(() => platform?.stop());

  it('joins the member whose verified email it was bought with', async () => {
    const signedOn = await admin(platform).post('/_api/iam/authentication/v2/sign-on', {
      loginId: { email: 'old.buyer@example.com' },
      verifyEmail: true,
    });
    expect(signedOn.status, JSON.stringify(signedOn.body)).toBe(200);
    const member = (await memberTokens(platform, signedOn.body.sessionToken)).access_token;
    const search = await call(platform, 'POST', '/ecom/v1/orders/search', { search: {} }, member);
    expect(search.body.orders.map((order: { id: string }) => order.id)).toEqual(['o-old']);
  });
});
