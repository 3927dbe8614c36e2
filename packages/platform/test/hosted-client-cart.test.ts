import { STORES_APP_ID } from '@cartwheel/sdk';
import { checkout, currentCart, orders } from '@wix/ecom';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from './catalog-http.ts';
import { shipToUs } from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * The hosted platform's own `currentCart` module, unchanged but for the host it reaches, against
 * Cartwheel's platform: a shopper's cart from first item to checkout.
 */
describe.each(DIALECTS)("the hosted platform's own current-cart client on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  let shopper: ReturnType<typeof shopperClient>;
  let mug: any;
  let wrap: any;
  const shopperClient = () =>
    createClient({
      modules: { currentCart, checkout, orders },
      auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }),
    });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
    mug = await createProduct(platform, {
      name: 'Hosted Mug',
      productType: 'physical',
      priceData: { price: 7.25 },
    });
    wrap = await createProduct(platform, {
      name: 'Gift wrap',
      productType: 'physical',
      priceData: { price: 2.5 },
    });
    shopper = shopperClient();
    await shipToUs(platform);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it("rejects getCurrentCart with OWNED_CART_NOT_FOUND before the shopper's first item", async () => {
    await expect(shopperClient().currentCart.getCurrentCart()).rejects.toMatchObject({
      details: { applicationError: { code: 'OWNED_CART_NOT_FOUND' } },
    });
  });

  it('adds to the cart, updates a quantity, estimates totals and creates a checkout', async () => {
    const added = await shopper.currentCart.addToCurrentCart({
      lineItems: [
        { catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id }, quantity: 1 },
        { catalogReference: { appId: STORES_APP_ID, catalogItemId: wrap.id }, quantity: 1 },
      ],
    });
    const cart: any = added.cart;
    expect(cart._id).toEqual(expect.any(String));
    expect(cart.lineItems.map((line: any) => [line.productName.original, line.quantity])).toEqual([
      ['Hosted Mug', 1],
      ['Gift wrap', 1],
    ]);
    // its own client renames the date fields, and revives them into Dates
    expect(cart._createdDate).toBeInstanceOf(Date);
    const mugLine = cart.lineItems[0]!;
    expect(mugLine.price.amount).toBe('7.25');

    const updated: any = await shopper.currentCart.updateCurrentCartLineItemQuantity([
      { _id: mugLine._id!, quantity: 3 },
    ]);
    expect(updated.cart.lineItems[0]).toMatchObject({
      _id: mugLine._id,
      quantity: 3,
      lineItemPrice: { amount: '21.75' },
    });

    const got: any = await shopper.currentCart.getCurrentCart();
    expect(got._id).toBe(cart._id);
    expect(got.lineItems.map((line: any) => line.quantity)).toEqual([3, 1]);

    const estimate: any = await shopper.currentCart.estimateCurrentCartTotals({
      calculateTax: false,
      calculateShipping: false,
    });
    expect(estimate.cart._id).toBe(cart._id);
    expect(estimate.priceSummary.subtotal.amount).toBe('24.25');
    expect(estimate.calculatedLineItems.map((line: any) => line.lineItemId)).toEqual(
      got.lineItems.map((line: any) => line._id),
    );

    const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({
      channelType: 'WEB' as any,
    });
    expect(checkoutId).toEqual(expect.any(String));
    expect((await shopper.currentCart.getCurrentCart()).checkoutId).toBe(checkoutId);

    const removed: any = await shopper.currentCart.removeLineItemsFromCurrentCart([mugLine._id!]);
    expect(removed.cart.lineItems.map((line: any) => line.productName.original)).toEqual(['Gift wrap']);

    await shopper.currentCart.deleteCurrentCart();
    await expect(shopper.currentCart.getCurrentCart()).rejects.toMatchObject({
      details: { applicationError: { code: 'OWNED_CART_NOT_FOUND' } },
    });
  });

  it('fills in a checkout with its checkout module, creates the order and reads it back with its orders module', async () => {
    const buyer = shopperClient();
    await buyer.currentCart.addToCurrentCart({
      lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id }, quantity: 2 }],
    });
    const { checkoutId } = await buyer.currentCart.createCheckoutFromCurrentCart({
      channelType: 'WEB' as any,
    });
    const address = {
      country: 'US',
      subdivision: 'US-NY',
      city: 'New York',
      postalCode: '10001',
      addressLine1: '1 Main Street',
    };
    const filled: any = await buyer.checkout.updateCheckout(checkoutId!, {
      buyerInfo: { email: 'hosted@example.com' },
      billingInfo: { address },
      shippingInfo: {
        shippingDestination: { address },
        selectedCarrierServiceOption: { code: 'standard' },
      },
    } as any);
    expect(filled._id).toBe(checkoutId);
    expect(filled.buyerInfo.email).toBe('hosted@example.com');
    expect(filled.shippingInfo.selectedCarrierServiceOption.code).toBe('standard');
    // 2 × 7.25 + 5.00 shipping
    expect(filled.priceSummary.total.amount).toBe('19.50');

    const read: any = await buyer.checkout.getCheckout(checkoutId!);
    expect(read.priceSummary.total.amount).toBe('19.50');
    expect(read._createdDate).toBeInstanceOf(Date);

    const created = await buyer.checkout.createOrder(checkoutId!);
    expect(created.orderId).toEqual(expect.any(String));
    expect(created.paymentGatewayOrderId).toEqual(expect.any(String));
    const order: any = await buyer.orders.getOrder(created.orderId!);
    expect(order).toMatchObject({
      _id: created.orderId,
      number: expect.any(String),
      status: 'INITIALIZED',
      paymentStatus: 'NOT_PAID',
      priceSummary: { total: { amount: '19.50' } },
    });
    expect(order.lineItems.map((line: any) => [line.productName.original, line.quantity])).toEqual([
      ['Hosted Mug', 2],
    ]);
  });
});
