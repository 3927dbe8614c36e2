import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing } from './billing-support.ts';
import { admin, call } from './catalog-http.ts';
import { adminOrder, applicationCode, eventSlugs, violatedFields } from './checkout-support.ts';
import { mailbox, memberTokens, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

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
 * is numbered, APPROVED and NOT_PAID, found by search as a placed order is, paid by a recorded cash
 * payment and fulfilled; totals that do not add up, bad fields and callers who may not are refused.
 */
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

  it('records a till order, finds it by search, takes cash for it and fulfils it', async () => {
    const email = uniqueEmail('till');
    const created = await create(tillOrder(email));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const order = created.body.order;
    expect(order).toMatchObject({
      status: 'APPROVED',
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
    expect(
      order.lineItems.map((line: any) => [line.productName.original, line.lineItemPrice.amount]),
    ).toEqual([
      ['Espresso Beans 1kg', '37.00'],
      ['Gift wrap', '3.00'],
    ]);
    expect(order.activities.map((activity: { type: string }) => activity.type)).toEqual(['ORDER_PLACED']);
    expect(await adminOrder(platform, order.id)).toEqual(order);
    expect(await eventSlugs(platform, order.id)).toEqual(['created', 'approved']);
    expect((await mailbox(platform, email)).length).toBe(1);

    // numbered from the same counter as every other order
    const next = (await create(tillOrder(uniqueEmail('next')))).body.order;
    expect(Number(next.number)).toBe(Number(order.number) + 1);

    for (const filter of [
      { 'buyerInfo.email': email },
      { 'tags.tags.tagIds': { $hasSome: ['till'] }, number: Number(order.number) },
      {
        'channelInfo.type': 'POS',
        'billingInfo.contactDetails.lastName': 'Counter',
        paymentStatus: 'NOT_PAID',
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

    const cash = await billing(platform).addPayments(order.id, [
      { amount: { amount: '42.00' }, regularPaymentDetails: { paymentMethod: 'Cash' } },
    ]);
    expect(cash.status, JSON.stringify(cash.body)).toBe(200);
    expect((await adminOrder(platform, order.id)).paymentStatus).toBe('PAID');

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

  it('mails no confirmation when the settings say not to', async () => {
    const email = uniqueEmail('quiet');
    const created = await create(tillOrder(email), { notifications: { sendNotificationToBuyer: false } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(await mailbox(platform, email)).toEqual([]);
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
      [{ ...tillOrder(email), paymentStatus: 'PAID' }, ['order.paymentStatus']],
      [{ ...tillOrder(email), lineItems: 'two lines' }, ['order.lineItems']],
    ];
    for (const [order, fields] of cases) {
      const answer = await create(order);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(violatedFields(answer), JSON.stringify(order)).toEqual(fields);
    }
    const noOrder = await call(platform, 'POST', '/ecom/v1/orders', {}, platform.adminApiKey);
    expect(noOrder.status).toBe(400);
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
