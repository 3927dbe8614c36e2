import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { createProduct, visitorToken } from './catalog-http.ts';
import {
  adminOrder,
  applicationCode,
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
} from './checkout-support.ts';
import { mailbox, uniqueEmail } from './identity-client.ts';
import { startMailServer } from './support/mail-server.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A buyer whose order is placed gets one confirmation email, through the outbox (the developer
 * mailbox shows it) and the store's mail server: whichever way the order was paid, however often
 * the payment was retried or submitted twice.
 */
describe.each(DIALECTS)('the order confirmation, on %s', (dialect) => {
  let platform: TestPlatform;
  let mail: Awaited<ReturnType<typeof startMailServer>>;
  let productId: string;

  beforeAll(async () => {
    mail = await startMailServer();
    platform = await startTestPlatform({ dialect, env: { SMTP_URL: `smtp://127.0.0.1:${mail.port}` } });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Lamp <Deluxe> & Co', 40, 100)).id;
  });
  afterAll(async () => {
    await platform?.stop();
    await mail?.close();
  });

  /** A visitor's checkout of one lamp, with `email` and a US address, and its hosted page. */
  async function checkoutFor(email: string, quantity = 1) {
    const shopper = await shopperCheckout(platform, [{ productId, quantity }], { details: false });
    const patched = await checkoutCalls(platform, shopper.auth).patch(
      shopper.checkoutId,
      buyerDetails(email),
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    return { ...shopper, page };
  }

  const confirmations = async (email: string) =>
    (await mailbox(platform, email)).filter((message) => message.kind === 'ORDER_CONFIRMATION');

  /**
   * The confirmations to `email`, once there is one (the event bus queues it after the order's
   * commit) and every one is delivered to the mail server.
   */
  async function delivered(email: string) {
    await expect
      .poll(
        async () => {
          const messages = await confirmations(email);
          return messages.length > 0 && messages.every((message) => message.status === 'SENT');
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    return confirmations(email);
  }

  /**
   * The confirmations to `email` once the confirmation subscriber has handled every event written so
   * far (its cursor, polled with a deadline): "none" then means none was asked for.
   */
  async function confirmationsOnceHandled(email: string) {
    const db = platform.services.database.db;
    const written = await db
      .selectFrom('events_outbox')
      .select((eb) => eb.fn.max('sequence').as('sequence'))
      .executeTakeFirst();
    await expect
      .poll(
        async () =>
          Number(
            (
              await db
                .selectFrom('event_cursors')
                .select('sequence')
                .where('subscriber', '=', 'order-confirmation-email')
                .executeTakeFirst()
            )?.sequence ?? 0,
          ) >= Number(written?.sequence ?? 0),
        { timeout: 10_000 },
      )
      .toBe(true);
    return confirmations(email);
  }

  /** The one confirmation to `email`, delivered. */
  async function theConfirmation(email: string) {
    const messages = await delivered(email);
    expect(messages).toHaveLength(1);
    return messages[0]!;
  }

  const sentTo = (email: string) => mail.received.filter((message) => message.includes(`To: ${email}`));

  it('an order paid on the hosted page mails its buyer one confirmation: number, lines, totals, addresses, a link', async () => {
    const email = uniqueEmail('confirm');
    const { page } = await checkoutFor(email, 2);
    const paid = await page.pay('pay-once', CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    // the page retries its request, and the shopper presses "Place order" again
    expect((await page.pay('pay-once', CARDS.approved)).body.orderId).toBe(paid.body.orderId);
    expect((await page.pay('pay-twice', CARDS.approved)).body.orderId).toBe(paid.body.orderId);

    const order = await adminOrder(platform, paid.body.orderId);
    const message = await theConfirmation(email);
    expect(message).toMatchObject({ to: email, status: 'SENT' });
    expect(message.subject).toContain(`#${order.number}`);
    const link = `${platform.services.config.publicUrl}/account/orders/${paid.body.orderId}`;
    for (const part of [
      `Order #${order.number}`,
      '2 × Lamp <Deluxe> & Co: $80.00',
      'Subtotal: $80.00',
      'Shipping: $5.00',
      'Total: $85.00',
      '1 Main Street',
      'New York US-NY 10001',
      link,
    ]) {
      expect(message.text).toContain(part);
    }
    expect(message.html).toContain('Lamp &lt;Deluxe&gt; &amp; Co');
    expect(message.html).not.toContain('<Deluxe>');
    expect(message.html).toContain(`<a href="${link}">`);
    expect(message.html).toContain('$85.00');

    const [sent, ...more] = sentTo(email);
    expect(more).toEqual([]);
    expect(sent).toContain('text/plain');
    expect(sent).toContain('text/html');
  });

  it('two submits at once place one order and mail one confirmation', async () => {
    const email = uniqueEmail('twice');
    const { page } = await checkoutFor(email);
    const answers = await Promise.all([
      page.pay('first-click', CARDS.approved),
      page.pay('second-click', CARDS.approved),
    ]);
    const orderIds = new Set(answers.map((answer) => answer.body.orderId).filter(Boolean));
    expect(orderIds.size, JSON.stringify(answers.map((answer) => answer.body))).toBe(1);
    expect(await delivered(email)).toHaveLength(1);
    expect(sentTo(email)).toHaveLength(1);
  });

  it('a declined card mails nothing; 3-D Secure mails once it is passed, and confirming again mails no more', async () => {
    const email = uniqueEmail('secure');
    const { page } = await checkoutFor(email);
    const declined = await page.pay('declined', CARDS.declined);
    expect(applicationCode(declined)).toBe('CARD_DECLINED');
    expect(await confirmationsOnceHandled(email)).toEqual([]);

    const step = await page.pay('secure', CARDS.threeDSecure);
    expect(step.body.status, JSON.stringify(step.body)).toBe('REQUIRES_ACTION');
    const attemptId = new URL(`http://page${step.body.actionUrl}`).searchParams.get('attempt') as string;
    expect(await confirmationsOnceHandled(email)).toEqual([]);
    const confirmed = await page.confirm(attemptId, true);
    expect(confirmed.body.status, JSON.stringify(confirmed.body)).toBe('APPROVED');
    expect((await page.confirm(attemptId, true)).body.orderId).toBe(confirmed.body.orderId);
    expect(await delivered(email)).toHaveLength(1);
  });

  it('create-order with nothing to pay mails one confirmation; asking again mails no other', async () => {
    const email = uniqueEmail('free');
    const freebie = await createProduct(platform, {
      name: 'Free Sticker',
      productType: 'digital',
      priceData: { price: 0 },
    });
    const auth = await visitorToken(platform);
    const cart = cartCalls(platform, auth);
    await cart.add({ lineItems: [catalogLine(freebie.id, 1)] });
    const { checkoutId } = (await cart.createCheckout({ email })).body;
    const calls = checkoutCalls(platform, auth);
    const created = await calls.createOrder(checkoutId);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await calls.createOrder(checkoutId)).body.orderId).toBe(created.body.orderId);

    const message = await theConfirmation(email);
    expect(message.text).toContain('1 × Free Sticker: $0.00');
    expect(message.text).toContain('Total: $0.00');
    expect(message.text).not.toContain('Shipping');
  });

  it('create-order with something to pay mails nothing until the order is paid, then one confirmation', async () => {
    const email = uniqueEmail('unpaid');
    const { auth, checkoutId, page } = await checkoutFor(email);
    const created = await checkoutCalls(platform, auth).createOrder(checkoutId);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(await confirmationsOnceHandled(email)).toEqual([]);

    const paid = await page.pay('pay-created', CARDS.approved);
    expect(paid.body.orderId).toBe(created.body.orderId);
    const message = await theConfirmation(email);
    expect(message.text).toContain(`Order #${(await adminOrder(platform, created.body.orderId)).number}`);
  });
});
