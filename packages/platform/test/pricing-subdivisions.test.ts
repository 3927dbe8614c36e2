import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { admin, visitorToken } from './catalog-http.ts';
import {
  ADDRESS,
  applicationCode,
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  expectBooksBalance,
  gatewayCharges,
  pageCalls,
  shipToUs,
  stockedProduct,
} from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Tax follows the region an address is in, however its subdivision is written: a name or a code in any
 * case and punctuation is placed in its ISO 3166-2 subdivision; an address that cannot be placed where
 * the store taxes by subdivision is a calculation error (create-order and payment refuse it), never a
 * silent zero.
 */
describe.each(DIALECTS)('subdivisions of tax addresses, on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    const api = admin(platform);
    for (const taxRegion of [
      { name: 'New York', country: 'US', subdivision: 'US-NY', rate: '0.08875', taxShipping: true },
      { name: 'Ontario', country: 'CA', subdivision: 'CA-ON', rate: '0.13' },
    ]) {
      const created = await api.post('/api/cartwheel/tax-regions', { taxRegion });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
    }
    productId = (await stockedProduct(platform, 'Taxed Lamp', 25, 100)).id;
  });
  afterAll(async () => {
    await platform?.stop();
  });
  // whatever a test did, every order's charge and every product's stock still add up
  afterEach(async () => {
    await expectBooksBalance(platform);
  });

  /** A new shopper's cart of one lamp, estimated to `address`. */
  async function estimate(address: Record<string, unknown>) {
    const cart = cartCalls(platform, await visitorToken(platform));
    expect((await cart.add({ lineItems: [catalogLine(productId, 1)] })).status).toBe(200);
    const answer = await cart.estimate({
      shippingAddress: address,
      calculateTax: true,
      calculateShipping: true,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  it('New York written out, abbreviated or in another case is taxed as US-NY', async () => {
    const byCode = await estimate({ country: 'US', subdivision: 'US-NY' });
    expect(byCode.priceSummary.tax.amount).toBe('2.66'); // 8.875% of 25.00 + 5.00 shipping
    for (const subdivision of [
      'New York',
      'new york',
      ' NEW YORK ',
      'N.Y.',
      'NY',
      'ny',
      'US-New York',
      'us-ny',
    ]) {
      const written = await estimate({ country: 'US', subdivision });
      expect([subdivision, written.priceSummary.tax.amount, written.calculationErrors]).toEqual([
        subdivision,
        '2.66',
        undefined,
      ]);
    }
    // a province by its name, as ISO 3166-2 names it
    const ontario = await estimate({ country: 'CA', subdivision: 'ontario' });
    expect(ontario.priceSummary.tax.amount).toBe('3.25');
  });

  it('a subdivision the store cannot place where it taxes by subdivision is a calculation error, not zero tax', async () => {
    for (const address of [
      { country: 'US', subdivision: 'Nwe York' },
      { country: 'US', subdivision: 'Atlantis' },
      { country: 'US' },
    ]) {
      const unplaced = await estimate(address);
      const violations = unplaced.calculationErrors?.taxCalculationError?.validationError?.fieldViolations;
      expect([address, violations?.map((v: { field: string }) => v.field)]).toEqual([
        address,
        ['shippingAddress.subdivision'],
      ]);
    }
    // a state the store does not tax is placed, and taxed at nothing, without an error
    const texas = await estimate({ country: 'US', subdivision: 'Texas' });
    expect([texas.priceSummary.tax.amount, texas.calculationErrors]).toEqual(['0.00', undefined]);
  });

  it('create-order and the hosted page refuse a checkout whose address cannot be taxed; placed, it pays its tax', async () => {
    const auth = await visitorToken(platform);
    const cart = cartCalls(platform, auth);
    await cart.add({ lineItems: [catalogLine(productId, 1)] });
    const checkoutId = (await cart.createCheckout({ channelType: 'WEB' })).body.checkoutId as string;
    const calls = checkoutCalls(platform, auth);
    const unplaced = { ...ADDRESS, subdivision: 'Nwe York' };
    const patched = await calls.patch(checkoutId, {
      checkout: {
        ...buyerDetails().checkout,
        billingInfo: { address: unplaced },
        shippingInfo: {
          shippingDestination: { address: unplaced },
          selectedCarrierServiceOption: { code: 'standard' },
        },
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.checkout.calculationErrors?.taxCalculationError).toBeDefined();
    const refused = await calls.createOrder(checkoutId);
    expect([refused.status, applicationCode(refused)]).toEqual([428, 'CALCULATION_ERRORS']);
    const page = pageCalls(platform, await checkoutSession(platform, auth, checkoutId));
    const charges = (await gatewayCharges(platform)).length;
    const unpaid = await page.pay('untaxed', CARDS.approved);
    expect([unpaid.status, applicationCode(unpaid)]).toEqual([428, 'CALCULATION_ERRORS']);
    expect(unpaid.body.details.applicationError.description).toContain(
      'shippingAddress.subdivision "Nwe York" is not a subdivision of US',
    );
    expect((await gatewayCharges(platform)).length).toBe(charges);

    const placed = { ...ADDRESS, subdivision: 'N.Y.' };
    const fixed = await page.update({ shippingAddress: placed, billingSameAsShipping: true });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.checkout.priceSummary.tax.amount).toBe('2.66');
    const paid = await page.pay('taxed', CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    const order = (await admin(platform).get(`/ecom/v1/orders/${paid.body.orderId}`)).body.order;
    expect(order.priceSummary).toMatchObject({ tax: { amount: '2.66' }, total: { amount: '32.66' } });
  });
});
