import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing, buy, cents, code, orderOf } from './billing-support.ts';
import { admin } from './catalog-http.ts';
import { shipToUs, stockedProduct, stockOf } from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Refunds are money-exact: table-driven over discount kinds and tax-inclusive and tax-exclusive
 * stores, partial lines and shipping; `calculateRefund` equals `refundPayments` to the cent, each
 * refund's parts add up, and the refunds of a whole order add up to its total exactly.
 */
describe.each(DIALECTS)('refunds of paid orders, on %s', (dialect) => {
  let platform: TestPlatform;
  let teapot: string;
  let cups: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    teapot = (await stockedProduct(platform, 'Refund Teapot', 19.99, 100)).id;
    cups = (await stockedProduct(platform, 'Refund Cups', 7.33, 100)).id;
    const api = admin(platform);
    const tax = await api.post('/api/cartwheel/tax-regions', {
      taxRegion: { name: 'New York', country: 'US', subdivision: 'US-NY', rate: '0.08875' },
    });
    expect(tax.status, JSON.stringify(tax.body)).toBe(200);
    for (const coupon of [
      { code: 'TENOFF', discountType: 'PERCENTAGE', percentage: 10 },
      { code: 'THREEOFF', discountType: 'FIXED_AMOUNT', fixedAmount: '3.00' },
    ]) {
      const made = await api.post('/api/cartwheel/coupons', { coupon });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
    }
  });
  afterAll(() => platform?.stop());

  const setTaxIncluded = async (included: boolean) => {
    const answer = await admin(platform).patch('/api/cartwheel/store-settings', {
      storeSettings: { taxIncludedInPrices: included },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };

  /** Calculates, then refunds the same items from the first payment: both must agree to the cent. */
  const refundExactly = async (
    orderId: string,
    refundItems: Record<string, unknown>,
    restock: unknown[] = [],
  ) => {
    const calculated = await billing(platform).calculate(orderId, refundItems);
    expect(calculated.status, JSON.stringify(calculated.body)).toBe(200);
    expect(calculated.body.available, JSON.stringify(calculated.body)).toBe(true);
    const transactions = (await billing(platform).transactions(orderId)).body.orderTransactions;
    const refunded = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId: transactions.payments[0].id }],
      refundItems,
      sideEffects: { restock: { lineItems: restock } },
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const summary = calculated.body.summary;
    expect(refunded.body.refund.transactions.map((t: any) => cents(t.amount))).toEqual([
      cents(summary.total),
    ]);
    expect(refunded.body.refund.transactions[0].refundStatus).toBe('SUCCEEDED');
    // the refund's parts add up: subtotal less discount (plus tax when it is added) is the total
    const order = await orderOf(platform, orderId);
    const taxAdded = order.taxIncludedInPrices ? 0 : cents(summary.tax);
    expect(cents(summary.subtotal) - cents(summary.discount) + taxAdded).toBe(cents(summary.total));
    return { summary, refund: refunded.body.refund };
  };

  const CASES = [
    { name: 'no discount, tax added', included: false },
    { name: 'a 10% coupon, tax added', included: false, coupon: 'TENOFF' },
    { name: 'an automatic 15% discount, tax added', included: false, rule: 15 },
    { name: 'a $3.00 coupon, tax included in prices', included: true, coupon: 'THREEOFF' },
    { name: 'an automatic 20% discount, tax included in prices', included: true, rule: 20 },
    {
      name: "a merchant's $5.00 discount on the order, tax added",
      included: false,
      merchant: () => [{ amount: '5.00' }],
    },
    {
      name: "a merchant's $4.01 discount on the teapots' line, tax included in prices",
      included: true,
      merchant: ([teapotLine]: string[]) => [{ amount: '4.01', lineItemIds: [teapotLine] }],
    },
  ];

  for (const testCase of CASES) {
    it(`refunds after ${testCase.name}: what was paid for the lines, parts to the cent, all of it at last`, async () => {
      await setTaxIncluded(testCase.included);
      let ruleId: string | undefined;
      if (testCase.rule) {
        const rule = await admin(platform).post('/ecom/v1/discount-rules', {
          discountRule: {
            name: `${testCase.rule}% off`,
            active: true,
            discounts: {
              values: [{ discountType: 'PERCENTAGE', percentage: testCase.rule, targetType: 'ENTIRE_CART' }],
            },
          },
        });
        expect(rule.status, JSON.stringify(rule.body)).toBe(200);
        ruleId = rule.body.discountRule.id;
      }
      try {
        const orderId = await buy(
          platform,
          [
            { productId: teapot, quantity: 3 },
            { productId: cups, quantity: 2 },
          ],
          {
            ...(testCase.coupon ? { coupon: testCase.coupon } : {}),
            ...(testCase.merchant ? { merchantDiscounts: testCase.merchant } : {}),
          },
        );
        const order = await orderOf(platform, orderId);
        const [teapotLine, cupsLine] = order.lineItems;
        const discounted = Boolean(testCase.coupon || testCase.rule || testCase.merchant);
        if (discounted) expect(cents(order.priceSummary.discount)).toBeGreaterThan(0);
        if (testCase.merchant)
          expect(order.appliedDiscounts).toEqual([
            expect.objectContaining({
              merchantDiscount: expect.objectContaining({ amount: expect.anything() }),
            }),
          ]);
        const shippingPaid = cents(order.shippingInfo.cost.totalPriceAfterTax);
        // the order's own parts add up: its lines (after discounts, with tax) and shipping are its total
        expect(
          order.lineItems.reduce((sum: number, line: any) => sum + cents(line.totalPriceAfterTax), 0) +
            shippingPaid,
        ).toBe(cents(order.priceSummary.total));

        // one teapot of three: its share of what the buyer paid for the line, not its list price
        const stockBefore = await stockOf(platform, teapot);
        const one = await refundExactly(
          orderId,
          { lineItems: [{ lineItemId: teapotLine.id, quantity: 1 }] },
          [{ lineItemId: teapotLine.id, quantity: 1 }],
        );
        expect(cents(one.summary.total)).toBe(Math.round(cents(teapotLine.totalPriceAfterTax) / 3));
        if (discounted) {
          expect(cents(one.summary.discount)).toBeGreaterThan(0);
          expect(cents(one.summary.total)).toBeLessThan(
            Math.round(cents(teapotLine.price) * (testCase.included ? 1 : 1.08875)),
          );
        }
        expect(await stockOf(platform, teapot)).toBe(stockBefore + 1);
        expect((await orderOf(platform, orderId)).paymentStatus).toBe('PARTIALLY_REFUNDED');

        // part of the shipping and a cup, no restock
        const cupsStock = await stockOf(platform, cups);
        await refundExactly(orderId, {
          lineItems: [{ lineItemId: cupsLine.id, quantity: 1 }],
          shipping: { amount: { amount: '2.00' } },
        });
        expect(await stockOf(platform, cups)).toBe(cupsStock);

        // whatever is left, as refundability says
        const left = (await billing(platform).refundability(orderId)).body;
        expect(left.lineItems).toEqual([
          { lineItemId: teapotLine.id, originalQuantity: 3, refundedQuantity: 1, availableRefundQuantity: 2 },
          { lineItemId: cupsLine.id, originalQuantity: 2, refundedQuantity: 1, availableRefundQuantity: 1 },
        ]);
        expect(cents(left.shipping.availableRefundAmount)).toBe(shippingPaid - 200);
        await refundExactly(orderId, {
          lineItems: left.lineItems.map((line: any) => ({
            lineItemId: line.lineItemId,
            quantity: line.availableRefundQuantity,
          })),
          shipping: {},
        });

        // every cent back, and not one more
        const transactions = (await billing(platform).transactions(orderId)).body.orderTransactions;
        const refundedCents = transactions.refunds
          .flatMap((refund: any) => refund.transactions)
          .reduce((sum: number, t: any) => sum + cents(t.amount), 0);
        expect(refundedCents).toBe(cents(order.priceSummary.total));
        expect(transactions.payments[0].status).toBe('REFUNDED');
        expect((await orderOf(platform, orderId)).paymentStatus).toBe('FULLY_REFUNDED');
        const after = (await billing(platform).refundability(orderId)).body;
        expect(after.payments[0]).toMatchObject({ nonRefundable: { reason: 'ALREADY_REFUNDED' } });
        const more = await billing(platform).refund(orderId, {
          paymentRefunds: [{ paymentId: transactions.payments[0].id, amount: { amount: '0.01' } }],
        });
        expect([more.status, code(more)]).toEqual([428, 'PAYMENT_NOT_REFUNDABLE']);
      } finally {
        if (ruleId) await admin(platform).delete(`/ecom/v1/discount-rules/${ruleId}`);
        await setTaxIncluded(false);
      }
    });
  }

  it('refuses too many of a line, more than was paid, a restock beyond the refund, and moves nothing', async () => {
    const orderId = await buy(platform, [{ productId: teapot, quantity: 2 }]);
    const order = await orderOf(platform, orderId);
    const line = order.lineItems[0];
    const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0].id;
    const stock = await stockOf(platform, teapot);
    const tooMany = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 3 }] },
    });
    expect([tooMany.status, code(tooMany)]).toEqual([400, 'INVALID_LINE_ITEM_REFUND_QUANTITY']);
    const calculated = await billing(platform).calculate(orderId, {
      lineItems: [{ lineItemId: line.id, quantity: 3 }],
    });
    expect(calculated.body).toMatchObject({
      available: false,
      notAvailable: {
        errors: [{ error: { applicationError: { code: 'INVALID_LINE_ITEM_REFUND_QUANTITY' } } }],
      },
    });
    const tooMuch = await billing(platform).refund(orderId, {
      paymentRefunds: [
        { paymentId, amount: { amount: ((cents(order.priceSummary.total) + 1) / 100).toFixed(2) } },
      ],
    });
    expect([tooMuch.status, code(tooMuch)]).toEqual([400, 'INVALID_PAYMENT_REFUND_AMOUNT']);
    const moreThanItems = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId, amount: { amount: order.priceSummary.total.amount } }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 1 }] },
    });
    expect([moreThanItems.status, code(moreThanItems)]).toEqual([400, 'INVALID_PAYMENT_REFUND_AMOUNT']);
    const restockMore = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 1 }] },
      sideEffects: { restock: { lineItems: [{ lineItemId: line.id, quantity: 2 }] } },
    });
    expect([restockMore.status, code(restockMore)]).toEqual([400, 'INVALID_LINE_ITEM_RESTOCK_QUANTITY']);
    const unknownLine = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: 'no-such-line', quantity: 1 }] },
    });
    expect([unknownLine.status, code(unknownLine)]).toEqual([404, 'LINE_ITEM_NOT_FOUND']);
    const badBody = await billing(platform).refund(orderId, { paymentRefunds: [] });
    expect(badBody.status).toBe(400);

    const transactions = (await billing(platform).transactions(orderId)).body.orderTransactions;
    expect(transactions.refunds).toEqual([]);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PAID');
    expect(await stockOf(platform, teapot)).toBe(stock);
  });

  it('a refund with restock and a cancel with restock never put the same unit back twice', async () => {
    const orderId = await buy(platform, [{ productId: teapot, quantity: 3 }]);
    const line = (await orderOf(platform, orderId)).lineItems[0];
    const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0].id;
    const stock = await stockOf(platform, teapot);
    const refunded = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 1 }] },
      sideEffects: { restock: { lineItems: [{ lineItemId: line.id, quantity: 1 }] } },
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(await stockOf(platform, teapot)).toBe(stock + 1);
    const canceled = await admin(platform).post(`/ecom/v1/orders/${orderId}/cancel`, {
      restockAllItems: true,
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(await stockOf(platform, teapot)).toBe(stock + 3);
    // everything is back on the shelf: refunding the rest gives the money back and restocks nothing more
    const again = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 2 }] },
      sideEffects: { restock: { lineItems: [{ lineItemId: line.id, quantity: 2 }] } },
    });
    expect([again.status, code(again)]).toEqual([400, 'INVALID_LINE_ITEM_RESTOCK_QUANTITY']);
    const rest = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 2 }], shipping: {} },
    });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(await stockOf(platform, teapot)).toBe(stock + 3);
    const order = await orderOf(platform, orderId);
    expect([order.status, order.paymentStatus]).toEqual(['CANCELED', 'FULLY_REFUNDED']);
  });

  it('what was refunded is not fulfilled: fulfillments stop at what was bought less refunds', async () => {
    const orderId = await buy(platform, [{ productId: teapot, quantity: 3 }]);
    const line = (await orderOf(platform, orderId)).lineItems[0];
    const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0].id;
    const refunded = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 1 }] },
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const fulfil = (quantity: number) =>
      admin(platform).post(`/ecom/v1/fulfillments/orders/${orderId}/create-fulfillment`, {
        orderId,
        fulfillment: { lineItems: [{ id: line.id, quantity }] },
      });
    const tooMany = await fulfil(3);
    expect([tooMany.status, code(tooMany)]).toEqual([428, 'QUANTITY_EXCEEDS_UNFULFILLED']);
    expect((await fulfil(2)).status).toBe(200);
  });

  /**
   * The fulfillment status as a state machine over fulfil, delete and refund steps: each step's
   * answer and the status after it. What can ship is bought less refunded, so a refunded unshipped
   * line never holds the order at PARTIALLY_FULFILLED.
   */
  const FULFILMENT_MACHINES: Array<{
    name: string;
    bought: number[];
    steps: Array<
      | { fulfil: Array<[line: number, quantity: number]>; answer: number; status: string }
      | { refund: Array<[line: number, quantity: number]>; status: string }
      | { deleteLast: true; status: string }
    >;
  }> = [
    {
      name: 'a refunded unshipped line completes an order whose other line shipped',
      bought: [2, 1],
      steps: [
        { fulfil: [[0, 2]], answer: 200, status: 'PARTIALLY_FULFILLED' },
        { refund: [[1, 1]], status: 'FULFILLED' },
        { fulfil: [[1, 1]], answer: 428, status: 'FULFILLED' },
      ],
    },
    {
      name: 'a part refund leaves what is left of the line to ship, and no more',
      bought: [3],
      steps: [
        { fulfil: [[0, 1]], answer: 200, status: 'PARTIALLY_FULFILLED' },
        { refund: [[0, 1]], status: 'PARTIALLY_FULFILLED' },
        { fulfil: [[0, 2]], answer: 428, status: 'PARTIALLY_FULFILLED' },
        { fulfil: [[0, 1]], answer: 200, status: 'FULFILLED' },
        { deleteLast: true, status: 'PARTIALLY_FULFILLED' },
        { refund: [[0, 1]], status: 'FULFILLED' },
        { fulfil: [[0, 1]], answer: 428, status: 'FULFILLED' },
      ],
    },
    {
      name: 'a refund of a shipped unit (a return) keeps a fulfilled order fulfilled',
      bought: [2],
      steps: [
        { fulfil: [[0, 2]], answer: 200, status: 'FULFILLED' },
        { refund: [[0, 1]], status: 'FULFILLED' },
      ],
    },
    {
      name: 'all refunded before anything shipped: nothing to ship, not fulfilled',
      bought: [1, 1],
      steps: [
        { refund: [[0, 1]], status: 'NOT_FULFILLED' },
        { fulfil: [[0, 1]], answer: 428, status: 'NOT_FULFILLED' },
        { fulfil: [[1, 1]], answer: 200, status: 'FULFILLED' },
      ],
    },
  ];

  for (const machine of FULFILMENT_MACHINES) {
    it(`fulfillment status after refunds: ${machine.name}`, async () => {
      const products = [teapot, cups];
      const orderId = await buy(
        platform,
        machine.bought.map((quantity, index) => ({ productId: products[index]!, quantity })),
      );
      const order = await orderOf(platform, orderId);
      const lineIds: string[] = order.lineItems.map((line: { id: string }) => line.id);
      const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0].id;
      const fulfillmentIds: string[] = [];
      for (const [index, step] of machine.steps.entries()) {
        const at = `step ${index}: ${JSON.stringify(step)}`;
        if ('fulfil' in step) {
          const answer = await admin(platform).post(
            `/ecom/v1/fulfillments/orders/${orderId}/create-fulfillment`,
            {
              orderId,
              fulfillment: {
                lineItems: step.fulfil.map(([line, quantity]) => ({ id: lineIds[line], quantity })),
              },
            },
          );
          expect(answer.status, `${at} ${JSON.stringify(answer.body)}`).toBe(step.answer);
          if (answer.status === 200) fulfillmentIds.push(answer.body.fulfillmentId);
          else expect(code(answer), at).toBe('QUANTITY_EXCEEDS_UNFULFILLED');
        } else if ('refund' in step) {
          const answer = await billing(platform).refund(orderId, {
            paymentRefunds: [{ paymentId }],
            refundItems: {
              lineItems: step.refund.map(([line, quantity]) => ({ lineItemId: lineIds[line], quantity })),
            },
          });
          expect(answer.status, `${at} ${JSON.stringify(answer.body)}`).toBe(200);
        } else {
          const answer = await admin(platform).delete(
            `/ecom/v1/fulfillments/${fulfillmentIds.pop()}/orders/${orderId}`,
          );
          expect(answer.status, at).toBe(200);
        }
        const now = await orderOf(platform, orderId);
        expect(now.fulfillmentStatus, at).toBe(step.status);
      }
      // reaching FULFILLED is told on the timeline, whichever step got there
      const reached = machine.steps.some((step) => step.status === 'FULFILLED');
      const told = (await orderOf(platform, orderId)).activities.filter(
        (activity: { type: string }) => activity.type === 'ORDER_FULFILLED',
      ).length;
      expect(told > 0).toBe(reached);
    });
  }

  it('a refund the provider declines leaves the order, its transactions and the stock as they were', async () => {
    const orderId = await buy(platform, [{ productId: teapot, quantity: 1 }], {
      card: '4000 0000 0000 5126',
    });
    const line = (await orderOf(platform, orderId)).lineItems[0];
    const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0].id;
    const stock = await stockOf(platform, teapot);
    const declined = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 1 }] },
      sideEffects: {
        restock: { lineItems: [{ lineItemId: line.id, quantity: 1 }] },
        notifications: { sendCustomerEmail: true },
      },
    });
    expect([declined.status, code(declined)]).toEqual([428, 'REFUND_DECLINED']);
    const transactions = (await billing(platform).transactions(orderId)).body.orderTransactions;
    expect(transactions.refunds).toEqual([]);
    expect(transactions.payments[0].status).toBe('APPROVED');
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PAID');
    expect(await stockOf(platform, teapot)).toBe(stock);
    const refundable = (await billing(platform).refundability(orderId)).body;
    expect(refundable.lineItems[0].availableRefundQuantity).toBe(1);
    const mails = await platform.services.database.db
      .selectFrom('email_outbox')
      .select('kind')
      .where('kind', '=', 'ORDER_REFUND')
      .where('body_text', 'like', `%${(await orderOf(platform, orderId)).number}%`)
      .execute();
    expect(mails).toEqual([]);
  });

  it('a refund split over a card and a recorded cash payment names each; the buyer is mailed', async () => {
    // the card authorized the whole order; the merchant captured part and took the rest in cash
    const orderId = await buy(platform, [{ productId: teapot, quantity: 2 }], { authorizeOnly: true });
    const order = await orderOf(platform, orderId);
    const total = cents(order.priceSummary.total);
    const card = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
    const captured = await billing(platform).capture(orderId, [
      { paymentId: card.id, amount: { amount: '30.00' } },
    ]);
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PARTIALLY_PAID');
    const tooMuchCash = await billing(platform).addPayments(orderId, [
      {
        amount: { amount: ((total - 3000 + 1) / 100).toFixed(2) },
        regularPaymentDetails: { offlinePayment: true, paymentMethod: 'Cash' },
      },
    ]);
    expect([tooMuchCash.status, code(tooMuchCash)]).toEqual([400, 'AMOUNTS_DO_NOT_ADD_UP']);
    const cashAmount = ((total - 3000) / 100).toFixed(2);
    const added = await billing(platform).addPayments(
      orderId,
      [
        {
          amount: { amount: cashAmount },
          regularPaymentDetails: { offlinePayment: true, paymentMethod: 'Cash' },
        },
      ],
      'cash-once',
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const again = await billing(platform).addPayments(
      orderId,
      [
        {
          amount: { amount: cashAmount },
          regularPaymentDetails: { offlinePayment: true, paymentMethod: 'Cash' },
        },
      ],
      'cash-once',
    );
    expect(again.body).toEqual(added.body);
    expect(added.body.orderTransactions.payments).toHaveLength(2);
    const cash = added.body.orderTransactions.payments[1];
    expect(cash).toMatchObject({
      status: 'APPROVED',
      regularPaymentDetails: { offlinePayment: true, paymentMethod: 'Cash' },
    });
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PAID');

    const refundable = (await billing(platform).refundability(orderId)).body;
    expect(
      refundable.payments.map((p: any) => [p.payment.paymentId, p.refundable, p.manuallyRefundable?.reason]),
    ).toEqual([
      [card.id, true, undefined],
      [cash.id, false, 'OFFLINE'],
    ]);
    expect(cents(refundable.paymentsSummary.monetary.paid)).toBe(total);

    const notExternal = await billing(platform).refund(orderId, {
      paymentRefunds: [{ paymentId: cash.id, amount: { amount: '1.00' } }],
    });
    expect([notExternal.status, code(notExternal)]).toEqual([428, 'EXTERNAL_REFUND_EXPECTED']);

    const line = order.lineItems[0];
    const calculated = (
      await billing(platform).calculate(orderId, { lineItems: [{ lineItemId: line.id, quantity: 2 }] })
    ).body;
    const whole = cents(calculated.summary.total);
    const refunded = await billing(platform).refund(orderId, {
      paymentRefunds: [
        { paymentId: card.id, amount: { amount: '30.00' } },
        { paymentId: cash.id, amount: { amount: ((whole - 3000) / 100).toFixed(2) }, externalRefund: true },
      ],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 2 }] },
      sideEffects: { notifications: { sendCustomerEmail: true, customMessage: 'Sorry <about> the teapots' } },
      customerReason: 'arrived broken',
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(
      refunded.body.refund.transactions.map((t: any) => [
        t.paymentId,
        cents(t.amount),
        t.externalRefund,
        t.refundStatus,
      ]),
    ).toEqual([
      [card.id, 3000, false, 'SUCCEEDED'],
      [cash.id, whole - 3000, true, 'SUCCEEDED'],
    ]);
    expect(refunded.body.refund.details).toMatchObject({
      reason: 'arrived broken',
      lineItems: [{ lineItemId: line.id, quantity: 2 }],
    });
    expect(refunded.body.orderTransactions.payments.map((p: any) => p.status)).toEqual([
      'REFUNDED',
      'PARTIALLY_REFUNDED',
    ]);
    const mail = await platform.services.database.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('kind', '=', 'ORDER_REFUND')
      .where('body_text', 'like', `%#${order.number}%`)
      .executeTakeFirstOrThrow();
    expect(mail.to_address).toBe('ada@example.com');
    expect(mail.body_text).toContain('Sorry <about> the teapots');
    expect(mail.body_html).toContain('Sorry &lt;about&gt; the teapots');
    const timeline = (await orderOf(platform, orderId)).activities.map((activity: any) => activity.type);
    expect(timeline).toEqual(
      expect.arrayContaining(['AUTHORIZED_PAYMENT_CAPTURED', 'ORDER_PAID', 'ORDER_REFUNDED']),
    );
  });

  it('the same Idempotency-Key refunds once, however often it is sent; racing refunds never pass what was paid', async () => {
    const orderId = await buy(platform, [{ productId: teapot, quantity: 1 }]);
    const order = await orderOf(platform, orderId);
    const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0].id;
    const body = { paymentRefunds: [{ paymentId, amount: { amount: '5.00' } }] };
    const answers = await Promise.all(
      [1, 2, 3].map(() => billing(platform).refund(orderId, body, 'refund-once')),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.refund.id)).size).toBe(1);
    const transactions = (await billing(platform).transactions(orderId)).body.orderTransactions;
    expect(transactions.refunds).toHaveLength(1);
    const gatewayRefunds = await platform.services.database.db
      .selectFrom('gateway_refunds')
      .selectAll()
      .where('transaction_id', '=', transactions.payments[0].regularPaymentDetails.gatewayTransactionId)
      .execute();
    expect(gatewayRefunds).toHaveLength(1);

    // eight merchants each refund 40% of the total at once: never more than was paid goes back
    const share = (Math.floor(cents(order.priceSummary.total) * 0.4) / 100).toFixed(2);
    const racing = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        billing(platform).refund(
          orderId,
          { paymentRefunds: [{ paymentId, amount: { amount: share } }] },
          `race-${index}`,
        ),
      ),
    );
    for (const refused of racing.filter((answer) => answer.status !== 200))
      expect(['PAYMENT_NOT_REFUNDABLE', 'INVALID_PAYMENT_REFUND_AMOUNT']).toContain(code(refused));
    const after = (await billing(platform).transactions(orderId)).body.orderTransactions;
    const refundedCents = after.refunds
      .flatMap((refund: any) => refund.transactions)
      .reduce((sum: number, t: any) => sum + cents(t.amount), 0);
    expect(refundedCents).toBeLessThanOrEqual(cents(order.priceSummary.total));
    expect(refundedCents).toBe(500 + racing.filter((answer) => answer.status === 200).length * cents(share));
    expect(racing.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
  });
});
