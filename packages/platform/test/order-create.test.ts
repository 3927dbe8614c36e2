import { STORES_APP_ID } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing } from './billing-support.ts';
import { admin, call, createProduct, createSizedProduct } from './catalog-http.ts';
import { adminOrder, applicationCode, eventSlugs, violatedFields } from './checkout-support.ts';
import { mailbox, memberTokens, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/** An app's id, as `settings.editableByOwnerApps` names owners. */
const OWNER_APP = '5e762334-899c-4e4a-9d5f-1f1f8b1f6f9e';

/** A till's sale: two lines, a buyer, totals that add up (store in USD, tax added to prices). */
function tillOrder(email: string, overrides: Record<string, unknown> = {}) {
  return {
    lineItems: [
      {
        productName: { original: 'Espresso Beans 1kg' },
        catalogReference: { catalogItemId: 'till-beans', appId: 'till' },
        quantity: 2,
        price: { amount: '18.50' },
        itemType: { preset: 'PHYSICAL' },
      },
      {
        productName: { original: 'Gift wrap' },
        quantity: 1,
        price: { amount: '3.00' },
        itemType: { preset: 'SERVICE' },
      },
    ],
    buyerInfo: { email },
    billingInfo: {
      address: { country: 'US', city: 'Springfield', addressLine: '1 Main St', postalCode: '12345' },
      contactDetails: { firstName: 'Tilly', lastName: 'Counter' },
    },
    channelInfo: { type: 'POS' },
    priceSummary: {
      subtotal: { amount: '40.00' },
      shipping: { amount: '0' },
      tax: { amount: '3.20' },
      discount: { amount: '1.20' },
      total: { amount: '42.00' },
    },
    tags: { tags: { tagIds: ['till'] } },
    ...overrides,
  };
}

/**
 * `createOrder` (`POST /ecom/v1/orders`): the merchant records an order taken elsewhere (a till); it
 * is numbered, and APPROVED when its approval strategy is met (paid, or an order of 0), else
 * INITIALIZED until a recorded payment pays it; a PAID order keeps its total as a transaction. Found
 * by search as a placed order is, fulfilled and refunded; totals that do not add up, bad fields,
 * unknown members and catalog items, and callers who may not are refused.
 */
/**
 * The buyer's one confirmation: the event bus queues it once the order's approval commits (its
 * subscriber runs just after), so the mailbox is asked until it holds one, then again once the
 * confirmation subscriber has handled every event written so far, when it must still hold one only.
 */
async function confirmationMailedTo(platform: TestPlatform, email: string): Promise<void> {
  await expect.poll(async () => (await mailbox(platform, email)).length, { timeout: 10_000 }).toBe(1);
  const db = platform.services.database.db;
  const written = await db
    .selectFrom('events_outbox')
    .select((eb) => eb.fn.max('sequence').as('sequence'))
    .executeTakeFirst();
  const handled = async () =>
    Number(
      (
        await db
          .selectFrom('event_cursors')
          .select('sequence')
          .where('subscriber', '=', 'order-confirmation-email')
          .executeTakeFirst()
      )?.sequence ?? 0,
    );
  await expect.poll(handled, { timeout: 10_000 }).toBeGreaterThanOrEqual(Number(written?.sequence ?? 0));
  expect(await mailbox(platform, email)).toHaveLength(1);
}

describe.each(DIALECTS)('orders the merchant records, on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const create = (order: unknown, settings?: unknown, auth?: string) =>
    call(platform, 'POST', '/ecom/v1/orders', { order, settings }, auth ?? platform.adminApiKey);

  it('records an unpaid till order INITIALIZED until cash pays it, then approves, finds and fulfils it', async () => {
    const email = uniqueEmail('till');
    const created = await create(tillOrder(email));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const order = created.body.order;
    // DEFAULT approves an order of more than 0 once its payment is received
    expect(order).toMatchObject({
      status: 'INITIALIZED',
      paymentStatus: 'NOT_PAID',
      fulfillmentStatus: 'NOT_FULFILLED',
      currency: 'USD',
      buyerInfo: { email },
      channelInfo: { type: 'POS' },
      priceSummary: {
        subtotal: { amount: '40.00' },
        tax: { amount: '3.20' },
        discount: { amount: '1.20' },
        total: { amount: '42.00', formattedAmount: '$42.00' },
      },
      tags: { tags: { tagIds: ['till'] } },
    });
    expect(order.number).toEqual(expect.any(String));
    expect(order).not.toHaveProperty('confirmOnApproval');
    expect(
      order.lineItems.map((line: any) => [line.productName.original, line.lineItemPrice.amount]),
    ).toEqual([
      ['Espresso Beans 1kg', '37.00'],
      ['Gift wrap', '3.00'],
    ]);
    expect(order.activities.map((activity: { type: string }) => activity.type)).toEqual(['ORDER_PLACED']);
    expect(await adminOrder(platform, order.id)).toEqual(order);
    expect(await eventSlugs(platform, order.id)).toEqual(['created']);
    // no confirmation, and not listed, while it waits for its payment
    expect(await mailbox(platform, email)).toEqual([]);
    const waiting = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'buyerInfo.email': email } },
    });
    expect(waiting.body.orders).toEqual([]);
    expect((await billing(platform).collectability(order.id)).body).toMatchObject({
      status: 'COLLECTABLE',
      amount: { amount: '42.00' },
    });

    const cash = await billing(platform).addPayments(order.id, [
      { amount: { amount: '42.00' }, regularPaymentDetails: { paymentMethod: 'Cash' } },
    ]);
    expect(cash.status, JSON.stringify(cash.body)).toBe(200);
    const paid = await adminOrder(platform, order.id);
    expect([paid.status, paid.paymentStatus]).toEqual(['APPROVED', 'PAID']);
    expect(paid).not.toHaveProperty('confirmOnApproval');
    expect(paid.activities.map((activity: { type: string }) => activity.type)).toEqual([
      'ORDER_PLACED',
      'ORDER_PAID',
    ]);
    // its transactions updated, the order updated, then approved
    expect(await eventSlugs(platform, order.id)).toEqual(['created', 'updated', 'updated', 'approved']);
    await confirmationMailedTo(platform, email);

    // numbered from the same counter as every other order
    const next = (await create(tillOrder(uniqueEmail('next')))).body.order;
    expect(Number(next.number)).toBe(Number(order.number) + 1);

    for (const filter of [
      { 'buyerInfo.email': email },
      { 'tags.tags.tagIds': { $hasSome: ['till'] }, number: Number(order.number) },
      {
        'channelInfo.type': 'POS',
        'billingInfo.contactDetails.lastName': 'Counter',
        paymentStatus: 'PAID',
      },
      { 'lineItems.catalogReference.catalogItemId': { $hasSome: ['till-beans'] }, 'buyerInfo.email': email },
    ]) {
      const found = await admin(platform).post('/ecom/v1/orders/search', { search: { filter } });
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect(
        found.body.orders.map((hit: { id: string }) => hit.id),
        JSON.stringify(filter),
      ).toContain(order.id);
    }

    const lines = order.lineItems.map((line: { id: string; quantity: number }) => ({
      id: line.id,
      quantity: line.quantity,
    }));
    const fulfilled = await admin(platform).post(
      `/ecom/v1/fulfillments/orders/${order.id}/create-fulfillment`,
      { orderId: order.id, fulfillment: { lineItems: lines } },
    );
    expect(fulfilled.status, JSON.stringify(fulfilled.body)).toBe(200);
    expect((await adminOrder(platform, order.id)).fulfillmentStatus).toBe('FULFILLED');

    // each line holds its share of the discount and tax: the gift wrap paid 3.00 - 0.09 + 0.24
    const wrap = { lineItems: [{ lineItemId: order.lineItems[1].id, quantity: 1 }] };
    const calculated = await billing(platform).calculate(order.id, wrap);
    expect(calculated.status, JSON.stringify(calculated.body)).toBe(200);
    expect(calculated.body.summary.total.amount).toBe('3.15');
    const all = await billing(platform).calculate(order.id, {
      lineItems: order.lineItems.map((line: { id: string; quantity: number }) => ({
        lineItemId: line.id,
        quantity: line.quantity,
      })),
    });
    expect(all.body.summary.total.amount).toBe('42.00');
    // the cash handed back for that line is recorded as refunded outside the platform
    const refunded = await billing(platform).refund(order.id, {
      paymentRefunds: [
        { paymentId: cash.body.paymentsIds[0], amount: { amount: '3.15' }, externalRefund: true },
      ],
      refundItems: wrap,
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((await adminOrder(platform, order.id)).paymentStatus).toBe('PARTIALLY_REFUNDED');
  });

  it('mails no confirmation when the settings say not to, at once or once paid', async () => {
    const email = uniqueEmail('quiet');
    // the business is mailed no order, and order editing is not Cartwheel's: accepted, of no effect
    const paid = await create(tillOrder(email, { paymentStatus: 'PAID' }), {
      notifications: { sendNotificationToBuyer: false, sendNotificationsToBusiness: true },
      editableByOwnerApps: { appIds: [OWNER_APP] },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const edited = await admin(platform).patch(`/ecom/v1/orders/${paid.body.order.id}`, {
      order: { buyerLanguage: 'fr' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const later = await create(tillOrder(email), { notifications: { sendNotificationToBuyer: false } });
    expect(later.body.order.status).toBe('INITIALIZED');
    const cash = await billing(platform).addPayments(later.body.order.id, [{ amount: { amount: '42.00' } }]);
    expect(cash.status, JSON.stringify(cash.body)).toBe(200);
    expect((await adminOrder(platform, later.body.order.id)).status).toBe('APPROVED');
    expect(await mailbox(platform, email)).toEqual([]);
  });

  it('records a PAID order APPROVED with its total as a transaction, refundable and counted', async () => {
    const email = uniqueEmail('paid');
    const created = await create(tillOrder(email, { paymentStatus: 'PAID' }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const order = created.body.order;
    expect(order).toMatchObject({
      status: 'APPROVED',
      paymentStatus: 'PAID',
      fulfillmentStatus: 'NOT_FULFILLED',
    });
    expect(order.activities.map((activity: { type: string }) => activity.type)).toEqual([
      'ORDER_PLACED',
      'ORDER_PAID',
    ]);
    // created, its transactions updated (the payment it was recorded with), approved
    expect(await eventSlugs(platform, order.id)).toEqual(['created', 'updated', 'approved']);
    await confirmationMailedTo(platform, email);

    const transactions = await billing(platform).transactions(order.id);
    expect(transactions.status, JSON.stringify(transactions.body)).toBe(200);
    const payments = transactions.body.orderTransactions.payments;
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      amount: { amount: '42.00' },
      regularPaymentDetails: { offlinePayment: true, status: 'APPROVED' },
    });
    expect((await billing(platform).collectability(order.id)).body.status).toBe(
      'NONCOLLECTABLE_ORDER_IS_PAID',
    );
    // nothing more is owed, so nothing more is taken
    const extra = await billing(platform).addPayments(order.id, [{ amount: { amount: '0.01' } }]);
    expect([extra.status, applicationCode(extra)]).toEqual([400, 'AMOUNTS_DO_NOT_ADD_UP']);

    const refundability = await billing(platform).refundability(order.id);
    expect(refundability.status, JSON.stringify(refundability.body)).toBe(200);
    expect(refundability.body.payments[0].payment.monetary.paid.amount).toBe('42.00');
    const refunded = await billing(platform).refund(order.id, {
      paymentRefunds: [{ paymentId: payments[0].id, amount: { amount: '10.00' }, externalRefund: true }],
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((await adminOrder(platform, order.id)).paymentStatus).toBe('PARTIALLY_REFUNDED');

    // found by payment status and counted by the dashboards' aggregates
    const found = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'buyerInfo.email': email, paymentStatus: 'PARTIALLY_REFUNDED' } },
    });
    expect(found.body.orders.map((hit: { id: string }) => hit.id)).toEqual([order.id]);
  });

  it('follows the approval strategy: INITIALIZED until paid, a pending payment approving once it clears', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown> | undefined, string, string]> = [
      [{ paymentStatus: 'PAID' }, { orderApprovalStrategy: 'PAYMENT_RECEIVED' }, 'APPROVED', 'PAID'],
      [{}, { orderApprovalStrategy: 'PAYMENT_RECEIVED' }, 'INITIALIZED', 'NOT_PAID'],
      [{}, { orderApprovalStrategy: 'PAYMENT_METHOD_SAVED' }, 'INITIALIZED', 'NOT_PAID'],
      [{ paymentStatus: 'PAID' }, { orderApprovalStrategy: 'PAYMENT_METHOD_SAVED' }, 'APPROVED', 'PAID'],
      [{ paymentStatus: 'PENDING' }, undefined, 'INITIALIZED', 'PENDING'],
      [
        { paymentStatus: 'UNSPECIFIED', status: 'INITIALIZED' },
        { orderApprovalStrategy: 'DEFAULT' },
        'INITIALIZED',
        'NOT_PAID',
      ],
    ];
    for (const [fields, settings, status, paymentStatus] of cases) {
      const answer = await create(tillOrder(uniqueEmail('strategy'), fields), settings);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(
        [answer.body.order.status, answer.body.order.paymentStatus],
        JSON.stringify([fields, settings]),
      ).toEqual([status, paymentStatus]);
    }

    // an order of 0 is approved at once under DEFAULT, paid or not
    const free = {
      lineItems: [{ productName: { original: 'Sample' }, quantity: 1, price: { amount: '0' } }],
      priceSummary: { subtotal: { amount: '0' }, total: { amount: '0' } },
    };
    const freeOrder = await create(tillOrder(uniqueEmail('free'), free));
    expect([freeOrder.status, freeOrder.body.order?.status], JSON.stringify(freeOrder.body)).toEqual([
      200,
      'APPROVED',
    ]);
    const freePaid = await create(tillOrder(uniqueEmail('free'), { ...free, paymentStatus: 'PAID' }), {
      orderApprovalStrategy: 'PAYMENT_RECEIVED',
    });
    expect([freePaid.body.order?.status, freePaid.body.order?.paymentStatus]).toEqual(['APPROVED', 'PAID']);
    expect(
      (await billing(platform).transactions(freePaid.body.order.id)).body.orderTransactions.payments,
    ).toEqual([]);

    // a cheque recorded pending: the order waits, then is approved when the cheque clears
    const email = uniqueEmail('cheque');
    const pending = (await create(tillOrder(email, { paymentStatus: 'PENDING' }))).body.order;
    const [cheque] = (await billing(platform).transactions(pending.id)).body.orderTransactions.payments;
    expect(cheque).toMatchObject({
      amount: { amount: '42.00' },
      regularPaymentDetails: { status: 'PENDING' },
    });
    expect(await mailbox(platform, email)).toEqual([]);
    const cleared = await billing(platform).updateStatus(pending.id, cheque.id, 'APPROVED');
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    const approved = await adminOrder(platform, pending.id);
    expect([approved.status, approved.paymentStatus]).toEqual(['APPROVED', 'PAID']);
    // created with its transactions; then its transactions and the order updated, and approved
    expect(await eventSlugs(platform, pending.id)).toEqual([
      'created',
      'updated',
      'updated',
      'updated',
      'approved',
    ]);
    await confirmationMailedTo(platform, email);

    // part of it paid: still waiting, still not listed
    const part = (await create(tillOrder(uniqueEmail('part')))).body.order;
    await billing(platform).addPayments(part.id, [{ amount: { amount: '40.00' } }]);
    const partly = await adminOrder(platform, part.id);
    expect([partly.status, partly.paymentStatus]).toEqual(['INITIALIZED', 'PARTIALLY_PAID']);
  });

  it('approves a waiting order once when two tills pay it at the same moment', async () => {
    const email = uniqueEmail('race');
    const order = (await create(tillOrder(email))).body.order;
    const answers = await Promise.all(
      [1, 2].map(() => billing(platform).addPayments(order.id, [{ amount: { amount: '42.00' } }])),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const paid = await adminOrder(platform, order.id);
    expect([paid.status, paid.paymentStatus]).toEqual(['APPROVED', 'PAID']);
    expect((await billing(platform).transactions(order.id)).body.orderTransactions.payments).toHaveLength(1);
    expect((await eventSlugs(platform, order.id)).filter((slug) => slug === 'approved')).toEqual([
      'approved',
    ]);
    await confirmationMailedTo(platform, email);
  });

  it('refuses payment statuses, strategies and statuses it cannot keep, with field violations', async () => {
    const free = {
      lineItems: [{ productName: { original: 'Sample' }, quantity: 1, price: { amount: '0' } }],
      priceSummary: { subtotal: { amount: '0' }, total: { amount: '0' } },
    };
    const cases: Array<[Record<string, unknown>, Record<string, unknown> | undefined, string[]]> = [
      [{ paymentStatus: 'PARTIALLY_PAID' }, undefined, ['order.paymentStatus']],
      [{ paymentStatus: 'FULLY_REFUNDED' }, undefined, ['order.paymentStatus']],
      [{}, { orderApprovalStrategy: 'WHEN_I_SAY_SO' }, ['settings.orderApprovalStrategy']],
      [{ status: 'CANCELED' }, undefined, ['order.status']],
      // the status follows from the payment and the strategy: an unpaid order is not APPROVED
      [{ status: 'APPROVED' }, undefined, ['order.status']],
      [{ status: 'INITIALIZED', paymentStatus: 'PAID' }, undefined, ['order.status']],
      // an order of 0 receives no payment: a strategy waiting for one would never approve it
      [free, { orderApprovalStrategy: 'PAYMENT_RECEIVED' }, ['settings.orderApprovalStrategy']],
      [free, { orderApprovalStrategy: 'PAYMENT_METHOD_SAVED' }, ['settings.orderApprovalStrategy']],
      [{ ...free, paymentStatus: 'PENDING' }, undefined, ['order.paymentStatus']],
      // settings kept of no effect here (docs/architecture.md) are still checked for their form
      [{}, { editableByOwnerApps: { appIds: [] } }, ['settings.editableByOwnerApps.appIds']],
      [{}, { editableByOwnerApps: { appIds: ['till-app'] } }, ['settings.editableByOwnerApps.appIds']],
      [
        {},
        { editableByEveryone: true, editableByOwnerApps: { appIds: [OWNER_APP] } },
        ['settings.editableByEveryone'],
      ],
      [{}, { editableByEveryone: 'yes' }, ['settings.editableByEveryone']],
      [
        {},
        { notifications: { sendNotificationsToBusiness: 'no' } },
        ['settings.notifications.sendNotificationsToBusiness'],
      ],
      [
        {},
        { notifications: { sendNotificationToBuyer: 0 } },
        ['settings.notifications.sendNotificationToBuyer'],
      ],
    ];
    for (const [fields, settings, violated] of cases) {
      const email = uniqueEmail('refused');
      const answer = await create(tillOrder(email, fields), settings);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(violatedFields(answer), JSON.stringify([fields, settings])).toEqual(violated);
      const none = await call(
        platform,
        'POST',
        '/ecom/v1/orders/search',
        { search: { filter: { 'buyerInfo.email': email, status: { $in: ['APPROVED', 'INITIALIZED'] } } } },
        platform.adminApiKey,
      );
      expect(none.body.orders).toEqual([]);
    }
  });

  it("checks the buyer's member and the stores app's catalog lines exist; other apps' items are theirs", async () => {
    const visitor = await visitorToken(platform);
    const registered = await register(platform, visitor, uniqueEmail('buyer'), 'correct horse battery');
    const memberId = registered.body.identity.id as string;
    const mug = await createProduct(platform, {
      name: 'Till Mug',
      productType: 'physical',
      priceData: { price: 9 },
    });
    const tee = await createSizedProduct(platform, 'Till Tee', 20);
    const storesLine = (catalogReference: Record<string, unknown>, price = '9.00') => ({
      productName: { original: 'Stores item' },
      catalogReference,
      quantity: 1,
      price: { amount: price },
    });
    const order = (lines: unknown[], total: string, buyerInfo: Record<string, unknown> = { memberId }) => ({
      lineItems: lines,
      buyerInfo,
      priceSummary: { subtotal: { amount: total }, total: { amount: total } },
      paymentStatus: 'PAID',
    });

    const good = await create(
      order(
        [
          storesLine({ appId: STORES_APP_ID, catalogItemId: mug.id }),
          storesLine(
            { appId: STORES_APP_ID, catalogItemId: tee.id, options: { options: { size: 'm' } } },
            '20.00',
          ),
          storesLine({ appId: 'another-app', catalogItemId: 'their-own-item' }),
        ],
        '38.00',
      ),
    );
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.order.buyerInfo.memberId).toBe(memberId);
    const member = (await memberTokens(platform, registered.body.sessionToken)).access_token;
    const own = await call(platform, 'GET', `/ecom/v1/orders/${good.body.order.id}`, undefined, member);
    expect(own.status, JSON.stringify(own.body)).toBe(200);

    const unknownMember = '0b6a6d7e-1c49-4bd8-9d6e-0d1f7b3c5a11';
    const bad = await create(
      order(
        [
          storesLine({ appId: STORES_APP_ID, catalogItemId: 'no-such-product' }),
          storesLine({ appId: STORES_APP_ID, catalogItemId: tee.id }, '20.00'),
          storesLine(
            { appId: STORES_APP_ID, catalogItemId: tee.id, options: { options: { Size: 'XL' } } },
            '20.00',
          ),
          storesLine({ catalogItemId: mug.id }),
        ],
        '58.00',
        { memberId: unknownMember },
      ),
    );
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect(violatedFields(bad)).toEqual(['order.lineItems[3].catalogReference.appId']);
    const missing = await create(
      order(
        [
          storesLine({ appId: STORES_APP_ID, catalogItemId: 'no-such-product' }),
          storesLine({ appId: STORES_APP_ID, catalogItemId: tee.id }, '20.00'),
          storesLine(
            { appId: STORES_APP_ID, catalogItemId: tee.id, options: { variantId: mug.id } },
            '20.00',
          ),
        ],
        '49.00',
        { memberId: unknownMember },
      ),
    );
    expect(missing.status, JSON.stringify(missing.body)).toBe(400);
    expect(violatedFields(missing)).toEqual([
      'order.buyerInfo.memberId',
      'order.lineItems[0].catalogReference.catalogItemId',
      'order.lineItems[1].catalogReference.options',
      'order.lineItems[2].catalogReference.options',
    ]);
    const found = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'buyerInfo.memberId': unknownMember } },
    });
    expect(found.body.orders).toEqual([]);
  });

  it('refuses totals that do not add up, to the cent', async () => {
    const email = uniqueEmail('wrong');
    const base = tillOrder(email);
    const summary = base.priceSummary;
    for (const priceSummary of [
      { ...summary, total: { amount: '42.01' } },
      { ...summary, subtotal: { amount: '39.99' }, total: { amount: '41.99' } },
    ]) {
      const answer = await create({ ...base, priceSummary });
      expect([answer.status, applicationCode(answer)], JSON.stringify(answer.body)).toEqual([
        400,
        'AMOUNTS_DO_NOT_ADD_UP',
      ]);
    }
    // the lines' own taxes must be the summary's tax; a discount cannot pass the subtotal
    const taxedLines = base.lineItems.map((line) => ({
      ...line,
      taxDetails: { totalTax: { amount: '1.60' } },
    }));
    const tooMuchTax = await create({
      ...base,
      lineItems: [taxedLines[0], base.lineItems[1]],
    });
    expect(applicationCode(tooMuchTax)).toBe('AMOUNTS_DO_NOT_ADD_UP');
    const lineTaxes = await create({
      ...base,
      lineItems: taxedLines,
      buyerInfo: { email: uniqueEmail('taxed') },
    });
    expect(lineTaxes.status, JSON.stringify(lineTaxes.body)).toBe(200);
    expect(lineTaxes.body.order.lineItems.map((line: any) => line.taxInfo.taxAmount.amount)).toEqual([
      '1.60',
      '1.60',
    ]);
    const overDiscount = await create({
      ...base,
      priceSummary: {
        subtotal: { amount: '40.00' },
        shipping: { amount: '50.00' },
        discount: { amount: '40.01' },
        total: { amount: '49.99' },
      },
    });
    expect(applicationCode(overDiscount)).toBe('AMOUNTS_DO_NOT_ADD_UP');
    const other = await create({ ...base, currency: 'EUR' });
    expect([other.status, applicationCode(other)]).toEqual([
      400,
      'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT',
    ]);
    const found = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'buyerInfo.email': email } },
    });
    expect(found.body.orders).toEqual([]);
  });

  it('answers field violations for bad bodies, never a 500', async () => {
    const email = uniqueEmail('bad');
    const cases: Array<[unknown, string[]]> = [
      [{ ...tillOrder(email), lineItems: [] }, ['order.lineItems']],
      [
        {
          ...tillOrder(email),
          lineItems: [{ productName: { original: '' }, quantity: 0, price: { amount: '-1' } }],
        },
        [
          'order.lineItems[0].productName.original',
          'order.lineItems[0].quantity',
          'order.lineItems[0].price.amount',
        ],
      ],
      [
        { ...tillOrder(email), lineItems: [{ productName: 'x', quantity: 1.5, price: { amount: '1.001' } }] },
        ['order.lineItems[0].quantity', 'order.lineItems[0].price.amount'],
      ],
      [{ ...tillOrder(email), buyerInfo: {} }, ['order.buyerInfo']],
      [{ ...tillOrder(email), buyerInfo: { email: 'not-an-email' } }, ['order.buyerInfo.email']],
      [
        { ...tillOrder(email), priceSummary: undefined },
        ['order.priceSummary', 'order.priceSummary.subtotal.amount', 'order.priceSummary.total.amount'],
      ],
      [{ ...tillOrder(email), channelInfo: { type: 'CARRIER_PIGEON' } }, ['order.channelInfo.type']],
      [{ ...tillOrder(email), paymentStatus: 'PARTIALLY_PAID' }, ['order.paymentStatus']],
      [{ ...tillOrder(email), lineItems: 'two lines' }, ['order.lineItems']],
      // kept as given, shipping and discounts must be what the order's answer carries, or no read of it could
      [
        { ...tillOrder(email), shippingInfo: { title: 'Courier', cost: { price: { amount: 7 } } } },
        ['order.shippingInfo.cost.price.amount'],
      ],
      [
        {
          ...tillOrder(email),
          appliedDiscounts: [
            { discountType: 'GLOBAL', lineItemIds: 'x', merchantDiscount: { amount: { amount: 3 } } },
          ],
        },
        ['order.appliedDiscounts[0].merchantDiscount.amount.amount', 'order.appliedDiscounts[0].lineItemIds'],
      ],
      // and no key the answer has no field for: it would be stored and never read back
      [
        {
          ...tillOrder(email),
          shippingInfo: { title: 'Courier', titel: 'Courier', logistics: { eta: 'soon' } },
        },
        ['order.shippingInfo.titel', 'order.shippingInfo.logistics.eta'],
      ],
      [
        { ...tillOrder(email), appliedDiscounts: [{ discountType: 'GLOBAL', discountName: 'Spring' }] },
        ['order.appliedDiscounts[0].discountName'],
      ],
    ];
    for (const [order, fields] of cases) {
      const answer = await create(order);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(violatedFields(answer), JSON.stringify(order)).toEqual(fields);
    }
    const noOrder = await call(platform, 'POST', '/ecom/v1/orders', {}, platform.adminApiKey);
    expect(noOrder.status).toBe(400);
    // nothing of the refused bodies was recorded: the buyer has no order
    const found = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'buyerInfo.email': email } },
    });
    expect(found.status).toBe(200);
    expect(found.body.orders).toEqual([]);
  });

  it('refuses members and visitors with 403, and no token with 401', async () => {
    const visitor = await visitorToken(platform);
    const registered = await register(platform, visitor, uniqueEmail('member'), 'correct horse battery');
    const member = (await memberTokens(platform, registered.body.sessionToken)).access_token;
    for (const auth of [visitor, member]) {
      const answer = await create(tillOrder(uniqueEmail('nope')), undefined, auth);
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
    }
    const anonymous = await call(platform, 'POST', '/ecom/v1/orders', { order: tillOrder(uniqueEmail('x')) });
    expect(anonymous.status).toBe(401);
  });
});
