import { expect } from 'vitest';
import { type RecordedEvent, readEvents } from '../src/events/outbox.ts';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { type Answer, admin, call, createProduct, visitorToken } from './catalog-http.ts';
import type { TestPlatform } from './support/platform.ts';

/** Shared steps of the checkout, payment and order tests: a store that ships, shoppers, the hosted page. */

export const CARDS = {
  approved: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  threeDSecure: '4000 0025 0000 3155',
};

export const card = (number: string) => ({ number, expiry: '12/40', cvc: '123', holderName: 'Ada Shopper' });

export const ADDRESS = {
  country: 'US',
  subdivision: 'US-NY',
  city: 'New York',
  postalCode: '10001',
  addressLine1: '1 Main Street',
};

/** The store ships to the US at a flat $5.00 ('standard'). */
export async function shipToUs(platform: TestPlatform): Promise<void> {
  const answer = await admin(platform).post('/api/cartwheel/shipping-regions', {
    shippingRegion: {
      name: 'United States',
      destinations: [{ country: 'US' }],
      options: [{ code: 'standard', title: 'Standard', rate: { kind: 'FLAT_RATE', price: '5.00' } }],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** A physical product at `price` with `quantity` counted in stock (its opening stock in the books). */
export async function stockedProduct(platform: TestPlatform, name: string, price: number, quantity: number) {
  const product = await createProduct(platform, {
    name,
    productType: 'physical',
    priceData: { price },
    stock: { trackInventory: true, quantity },
  });
  await openStock(platform, product.id);
  return product;
}

// ---- the books: every order's charge and every product's stock, reconciled ----

interface StockedVariant {
  id: string;
  choices: Record<string, string>;
  quantity: number | null;
}

/** What each counted variant held when the test made it, by `productId/variantId`. */
const openingStock = new WeakMap<TestPlatform, Map<string, number>>();

async function variantsOf(platform: TestPlatform, productIds: string[]) {
  if (productIds.length === 0) return new Map<string, StockedVariant[]>();
  const rows = await platform.services.database.db
    .selectFrom('products')
    .select(['id', 'record'])
    .where('id', 'in', productIds)
    .execute();
  return new Map(
    rows.flatMap((row) => {
      const record = JSON.parse(row.record) as { trackInventory: boolean; variants: StockedVariant[] };
      return record.trackInventory ? [[row.id, record.variants] as const] : [];
    }),
  );
}

/** Records what a counted product the test made holds now, variant by variant: its opening stock. */
export async function openStock(platform: TestPlatform, productId: string): Promise<void> {
  const opening = openingStock.get(platform) ?? new Map<string, number>();
  openingStock.set(platform, opening);
  for (const variant of (await variantsOf(platform, [productId])).get(productId) ?? []) {
    opening.set(`${productId}/${variant.id}`, variant.quantity ?? 0);
  }
}

const cents = (amount: string) => Math.round(Number(amount) * 100);

/**
 * A payment provider's own ledger, as the books are checked against it: every charge that took or
 * holds money, under the idempotency key it was asked with, and what the provider refunded of it;
 * with `state`, where the provider left it (a provider outside the platform, Stripe's stand-in).
 */
export interface ProviderLedger {
  charges(): Promise<
    Array<{
      transactionId: string;
      idempotencyKey: string;
      amount: string;
      refunded: string;
      state?: 'AUTHORIZED' | 'CAPTURED' | 'CANCELED';
    }>
  >;
}

/** The built-in test gateway's ledger, kept in the store's database (`gateway_charges`, `gateway_refunds`). */
export function testGatewayLedger(platform: TestPlatform): ProviderLedger {
  return {
    async charges() {
      const db = platform.services.database.db;
      const [charges, refunds] = await Promise.all([
        db.selectFrom('gateway_charges').selectAll().where('status', '=', 'APPROVED').execute(),
        db
          .selectFrom('gateway_refunds')
          .select(['transaction_id', 'amount'])
          .where('status', '=', 'SUCCEEDED')
          .execute(),
      ]);
      return charges.map((charge) => ({
        transactionId: charge.transaction_id,
        idempotencyKey: charge.idempotency_key,
        amount: charge.amount,
        refunded: String(
          refunds
            .filter((refund) => refund.transaction_id === charge.transaction_id)
            .reduce((sum, refund) => sum + cents(refund.amount), 0) / 100,
        ),
      }));
    },
  };
}

/**
 * The store's books balance, whatever cart, checkout, payment and recorded-order calls came before:
 * every online payment of an order is a charge the gateway made, of the order's total; every charge a
 * payment made is an order's payment (or one whose answer is still being settled); the payments the
 * merchant recorded (cash, a transfer, an order recorded paid) never take more than an order's total,
 * an order recorded by the merchant is approved once they paid it in full and waits while they have
 * not; no payment is refunded more than it took, an offline one only outside the platform; a checkout
 * its paid order completed shows that order's lines and total; and each counted variant opened with
 * `openStock` holds its opening stock less what the orders holding stock bought of it (paid checkout
 * orders, and orders whose payment is in flight or waits on 3-D Secure; a recorded order takes none).
 * The provider's `ledger` (the test gateway's unless named) agrees: each payment's charge refunded
 * at least what the store's refunds through the provider gave back and at most all its refunds
 * (recorded ones, and those still under way, included), and held, taken or released as the payment
 * says. Read from the database, as a second process would.
 */
export async function expectBooksBalance(
  platform: TestPlatform,
  ledger: ProviderLedger = testGatewayLedger(platform),
): Promise<void> {
  const db = platform.services.database.db;
  const [orders, payments, charges, attempts, refunds] = await Promise.all([
    db.selectFrom('orders').select(['id', 'status', 'holds_stock', 'checkout_id', 'doc']).execute(),
    db.selectFrom('order_payments').selectAll().execute(),
    ledger.charges(),
    db.selectFrom('checkout_attempts').select(['id', 'order_id', 'status']).execute(),
    db.selectFrom('order_refunds').select(['order_id', 'status', 'doc']).execute(),
  ]);
  const docs = new Map(orders.map((order) => [order.id, JSON.parse(order.doc)]));
  const totalOf = (orderId: string) => docs.get(orderId)?.priceSummary?.total?.amount as string;
  const online = payments.filter((payment) => Number(payment.offline) !== 1);
  const offline = payments.filter((payment) => Number(payment.offline) === 1);

  // money: each online payment is a charge of its order's total, and each charge is a payment
  const charged = new Map(charges.map((charge) => [charge.transactionId, charge]));
  for (const payment of online) {
    const charge = charged.get(payment.gateway_transaction_id);
    expect(charge, `the charge of order ${payment.order_id}'s payment`).toBeDefined();
    expect([payment.order_id, cents(charge!.amount), cents(payment.amount)], 'charged its total').toEqual([
      payment.order_id,
      cents(totalOf(payment.order_id)),
      cents(totalOf(payment.order_id)),
    ]);
  }
  const paidBy = new Set(online.map((payment) => payment.gateway_transaction_id));
  const inFlight = attempts.filter((attempt) => ['PROCESSING', 'REQUIRES_ACTION'].includes(attempt.status));
  const settling = new Set(inFlight.map((attempt) => `${attempt.order_id}:${attempt.id}`));
  // the charges payments made (a test may also charge the gateway itself, for no order)
  const attemptKeys = new Set(attempts.map((attempt) => `${attempt.order_id}:${attempt.id}`));
  for (const charge of charges.filter((charge) => attemptKeys.has(charge.idempotencyKey))) {
    expect(
      paidBy.has(charge.transactionId) || settling.has(charge.idempotencyKey),
      `charge ${charge.idempotencyKey} of ${charge.amount} is some order's payment`,
    ).toBe(true);
  }
  const sum = (rows: Array<{ amount: string }>) => rows.reduce((total, row) => total + cents(row.amount), 0);
  for (const order of orders) {
    const total = cents(totalOf(order.id));
    const own = online.filter((payment) => payment.order_id === order.id);
    const recorded = offline.filter((payment) => payment.order_id === order.id);
    // what is taken or waiting to clear, online or recorded, never passes the order's total
    const live = [...own, ...recorded].filter(
      (payment) => !['VOIDED', 'CANCELED', 'DECLINED'].includes(payment.status),
    );
    expect([order.id, sum(live) <= total], 'taken at most its total').toEqual([order.id, true]);
    // what the merchant recorded as taken (a refund later leaves it taken, and says how much went back)
    const taken = ['APPROVED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
    const approvedCash = sum(recorded.filter((payment) => taken.includes(payment.status)));
    // a subscription's renewal order is made by its worker, no checkout, and paid online like a checkout's
    const renewal = (docs.get(order.id)?.lineItems ?? []).some(
      (line: { subscriptionInfo?: { cycleNumber?: number } }) =>
        (line.subscriptionInfo?.cycleNumber ?? 0) > 1,
    );
    if (order.checkout_id === null && !renewal) {
      // an order the merchant recorded is paid only by what they record
      expect([order.id, own.length], 'a recorded order has no online payment').toEqual([order.id, 0]);
      if (order.status === 'INITIALIZED')
        expect([order.id, approvedCash < total], 'a waiting order is not paid in full').toEqual([
          order.id,
          true,
        ]);
      // approved once paid in full (unless a payment bounced since), or at once when there was nothing to pay
      const bounced = recorded.some((payment) => ['CANCELED', 'DECLINED'].includes(payment.status));
      if (order.status === 'APPROVED' && total > 0 && !bounced)
        expect([order.id, approvedCash], 'an approved recorded order was paid its total').toEqual([
          order.id,
          total,
        ]);
    } else if (order.status === 'APPROVED' && total > 0) {
      expect([order.id, own.length], 'a paid order has one payment').toEqual([order.id, 1]);
    }
  }
  // refunds: never more than a payment took; a recorded payment's only outside the platform
  const refunded = new Map<string, number>();
  /** Refunds the provider was asked for and gave (at least what it must hold) and every refund at all (at most). */
  const throughProvider = new Map<string, number>();
  const anyRefund = new Map<string, number>();
  for (const refund of refunds) {
    const doc = JSON.parse(refund.doc) as {
      transactions: Array<{
        paymentId: string;
        amount: { amount: string };
        externalRefund: boolean;
        refundStatus: string;
      }>;
    };
    for (const transaction of doc.transactions.filter((row) => row.refundStatus !== 'FAILED')) {
      const amount = cents(transaction.amount.amount);
      anyRefund.set(transaction.paymentId, (anyRefund.get(transaction.paymentId) ?? 0) + amount);
      if (!transaction.externalRefund && refund.status === 'SUCCEEDED')
        throughProvider.set(
          transaction.paymentId,
          (throughProvider.get(transaction.paymentId) ?? 0) + amount,
        );
      const payment = payments.find((row) => row.id === transaction.paymentId);
      expect([transaction.paymentId, payment?.order_id], "a refund names its order's payment").toEqual([
        transaction.paymentId,
        refund.order_id,
      ]);
      if (Number(payment!.offline) === 1)
        expect([payment!.id, transaction.externalRefund], 'cash is handed back by hand').toEqual([
          payment!.id,
          true,
        ]);
      refunded.set(payment!.id, (refunded.get(payment!.id) ?? 0) + cents(transaction.amount.amount));
    }
  }
  for (const [paymentId, amount] of refunded) {
    const payment = payments.find((row) => row.id === paymentId)!;
    expect([paymentId, amount <= cents(payment.amount)], 'refunded at most what it took').toEqual([
      paymentId,
      true,
    ]);
  }
  // the provider's ledger: what it refunded, and where it left each charge
  const STATES: Record<string, string> = { AUTHORIZED: 'AUTHORIZED', VOIDED: 'CANCELED' };
  for (const payment of online) {
    const charge = charged.get(payment.gateway_transaction_id)!;
    const atProvider = cents(charge.refunded);
    expect(
      [payment.id, throughProvider.get(payment.id) ?? 0, anyRefund.get(payment.id) ?? 0],
      "the provider refunded what the store's refunds say",
    ).toEqual([
      payment.id,
      Math.min(atProvider, throughProvider.get(payment.id) ?? 0),
      Math.max(atProvider, anyRefund.get(payment.id) ?? 0),
    ]);
    // a capture or void still under way is the one moment the two may differ
    const underWay =
      (JSON.parse(payment.captures ?? '[]') as Array<{ status: string }>).some(
        (c) => c.status === 'PENDING',
      ) || (JSON.parse(payment.void ?? '{}') as { status?: string }).status === 'PENDING';
    if (charge.state && !underWay)
      expect(
        [payment.id, charge.state],
        'the provider holds, took or released it as the payment says',
      ).toEqual([payment.id, STATES[payment.status] ?? 'CAPTURED']);
  }

  // what was ordered is what the buyer confirmed: a checkout completed by its paid order shows that order
  const completed = await db
    .selectFrom('checkouts')
    .select(['id', 'order_id', 'priced'])
    .where('completed', '=', 1)
    .where('order_id', 'is not', null)
    .execute();
  for (const checkout of completed) {
    const order = orders.find((candidate) => candidate.id === checkout.order_id);
    if (order?.status !== 'APPROVED') continue;
    const shown = JSON.parse(checkout.priced) as { lineItems: OrderLine[]; amounts: { total: string } };
    const ordered = docs.get(order.id).lineItems as OrderLine[];
    const confirmed = [checkout.id, cents(shown.amounts.total), shown.lineItems.map((line) => line.quantity)];
    expect(confirmed, 'a completed checkout shows what its order bought').toEqual([
      checkout.id,
      cents(totalOf(order.id)),
      ordered.map((line) => line.quantity),
    ]);
  }

  // stock: what left each counted variant is what the orders holding stock bought of it
  const opening = openingStock.get(platform) ?? new Map<string, number>();
  const productIds = [...new Set([...opening.keys()].map((key) => key.split('/')[0]!))];
  const variants = await variantsOf(platform, productIds);
  const paying = new Set(inFlight.map((attempt) => attempt.order_id));
  // a recorded order takes no stock (orders/service.ts createRecorded)
  const holding = orders.filter(
    (order) =>
      order.checkout_id !== null &&
      (order.status === 'APPROVED' || Number(order.holds_stock) === 1 || paying.has(order.id)),
  );
  const bought = new Map<string, number>();
  for (const order of holding) {
    for (const line of docs.get(order.id).lineItems as OrderLine[]) {
      const productId = line.catalogReference?.catalogItemId ?? '';
      const variant = soldVariant(variants.get(productId) ?? [], line);
      if (!variant) continue;
      const key = `${productId}/${variant.id}`;
      bought.set(key, (bought.get(key) ?? 0) + line.quantity);
    }
  }
  for (const [productId, held] of variants) {
    for (const variant of held) {
      const key = `${productId}/${variant.id}`;
      if (!opening.has(key)) continue;
      const taken = opening.get(key)! - (variant.quantity ?? 0);
      expect([key, taken], 'the stock taken is what orders bought').toEqual([key, bought.get(key) ?? 0]);
    }
  }
}

interface OrderLine {
  quantity: number;
  catalogReference?: { catalogItemId?: string };
  descriptionLines?: Array<{
    name?: { original?: string };
    plainText?: { original?: string };
    colorInfo?: { original?: string };
  }>;
}

/** The variant an order's line sold, by the choices its description lines show (none: the only one). */
function soldVariant(variants: StockedVariant[], line: OrderLine): StockedVariant | undefined {
  const shown = Object.fromEntries(
    (line.descriptionLines ?? []).map((described) => [
      described.name?.original,
      described.plainText?.original ?? described.colorInfo?.original,
    ]),
  );
  return variants.find(
    (variant) =>
      Object.keys(variant.choices).length === Object.keys(shown).length &&
      Object.entries(variant.choices).every(([option, choice]) => shown[option] === choice),
  );
}

/** What a variant of a product holds now, read as an admin. */
export async function stockOf(platform: TestPlatform, productId: string): Promise<number> {
  const answer = await admin(platform).get(
    `/stores-reader/v1/products/${productId}?includeMerchantSpecificData=true`,
  );
  return answer.body.product.stock.quantity;
}

/** What each variant of a product holds now, by its choices (`M/Navy`), read as an admin. */
export async function variantStock(
  platform: TestPlatform,
  productId: string,
): Promise<Record<string, number>> {
  const answer = await admin(platform).get(
    `/stores-reader/v1/products/${productId}?includeMerchantSpecificData=true`,
  );
  return Object.fromEntries(
    answer.body.product.variants.map(
      (variant: { choices: Record<string, string>; stock: { quantity: number } }) => [
        Object.values(variant.choices).join('/'),
        variant.stock.quantity,
      ],
    ),
  );
}

export const checkoutCalls = (platform: TestPlatform, auth: string) => {
  const path = '/ecom/v1/checkouts';
  return {
    get: (id: string) => call(platform, 'GET', `${path}/${id}?id=${id}`, undefined, auth),
    byCart: (cartId: string) =>
      call(platform, 'GET', `${path}/by-cart-id/${cartId}?id=${cartId}`, undefined, auth),
    create: (body: unknown) => call(platform, 'POST', path, body, auth),
    patch: (id: string, body: unknown) => call(platform, 'PATCH', `${path}/${id}`, body, auth),
    add: (id: string, lineItems: unknown[]) =>
      call(platform, 'POST', `${path}/${id}/add-to-checkout`, { id, lineItems }, auth),
    removeLines: (id: string, lineItemIds: string[]) =>
      call(platform, 'POST', `${path}/${id}/remove-line-items`, { id, lineItemIds }, auth),
    setQuantities: (id: string, lineItems: unknown[]) =>
      call(platform, 'POST', `${path}/${id}/update-line-items-quantity`, { id, lineItems }, auth),
    removeCoupon: (id: string) => call(platform, 'POST', `${path}/${id}/remove-coupon`, { id }, auth),
    createOrder: (id: string) => call(platform, 'POST', `${path}/${id}/create-order`, { id }, auth),
    checkoutUrl: (id: string) =>
      call(platform, 'GET', `${path}/${id}/checkout-url?id=${id}`, undefined, auth),
    markCompleted: (id: string) => call(platform, 'POST', `${path}/${id}/mark-as-completed`, { id }, auth),
  };
};

/** The buyer's details every order needs, as the hosted client's PATCH sends them. */
export const buyerDetails = (email = 'ada@example.com') => ({
  checkout: {
    buyerInfo: { email },
    billingInfo: { address: ADDRESS },
    shippingInfo: {
      shippingDestination: { address: ADDRESS },
      selectedCarrierServiceOption: { code: 'standard' },
    },
  },
});

/** A shopper's cart of `lines` turned into a checkout: answers the shopper's token, cart and checkout ids. */
export async function shopperCheckout(
  platform: TestPlatform,
  lines: Array<{ productId: string; quantity: number }>,
  options: {
    auth?: string;
    details?: boolean;
    /** The merchant's discounts for the cart (given its line ids), set with the admin key. */
    merchantDiscounts?: (cartLineIds: string[]) => unknown[];
  } = {},
): Promise<{ auth: string; cartId: string; checkoutId: string }> {
  const auth = options.auth ?? (await visitorToken(platform));
  const cart = cartCalls(platform, auth);
  const added = await cart.add({
    lineItems: lines.map((line) => catalogLine(line.productId, line.quantity)),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  if (options.merchantDiscounts) {
    // the shopper's token with the admin key after it: the merchant discounts that shopper's cart
    const lineIds = added.body.cart.lineItems.map((line: { id: string }) => line.id);
    const discounted = await cartCalls(platform, `${auth},${platform.adminApiKey}`).patch({
      merchantDiscounts: options.merchantDiscounts(lineIds),
    });
    expect(discounted.status, JSON.stringify(discounted.body)).toBe(200);
  }
  const created = await cart.createCheckout({ channelType: 'WEB' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const checkoutId = created.body.checkoutId as string;
  if (options.details !== false) {
    const patched = await checkoutCalls(platform, auth).patch(checkoutId, buyerDetails());
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  }
  return { auth, cartId: added.body.cart.id, checkoutId };
}

/** A hosted checkout page session for the checkout, as the storefront's redirect session makes it. */
export async function checkoutSession(
  platform: TestPlatform,
  auth: string,
  checkoutId: string,
  callbacks: Record<string, string> = {
    postFlowUrl: 'http://shop.test/cart',
    thankYouPageUrl: 'http://shop.test/thanks',
  },
): Promise<string> {
  const answer = await call(
    platform,
    'POST',
    '/_api/redirects-api/v1/redirect-session',
    { ecomCheckout: { checkoutId }, callbacks },
    auth,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const fullUrl = new URL(answer.body.redirectSession.fullUrl);
  expect(fullUrl.pathname).toBe('/auth/checkout');
  return fullUrl.searchParams.get('session') as string;
}

/** The hosted checkout page's calls, each with its session header and no access token. */
export const pageCalls = (platform: TestPlatform, session: string) => {
  const send = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = { 'X-Checkout-Session': session };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${platform.url}/_api/checkout-page/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    session: () => send('GET', '/session'),
    update: (body: unknown) => send('POST', '/update', body),
    removeCoupon: () => send('POST', '/remove-coupon', {}),
    pay: (attemptKey: string, number: string) => send('POST', '/pay', { attemptKey, card: card(number) }),
    payWith: (body: unknown) => send('POST', '/pay', body),
    attempt: (attemptId: string) => send('GET', `/attempts/${attemptId}`),
    confirm: (attemptId: string, approve: boolean) =>
      send('POST', `/attempts/${attemptId}/confirm`, { approve }),
  };
};

/** The order, as an admin reads it. */
export const adminOrder = async (platform: TestPlatform, orderId: string) =>
  (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;

/** Charges the test gateway made, by the ledger (a key closed as never charged is no charge). */
export const gatewayCharges = (platform: TestPlatform) =>
  platform.services.database.db
    .selectFrom('gateway_charges')
    .selectAll()
    .where('status', '<>', 'CLOSED')
    .execute();

/** Events written for an entity, as `slug`s in order. */
/** The slugs of the events about `entityId`, oldest first: of one entity when named (an order's own, not its transactions'). */
export async function eventSlugs(
  platform: TestPlatform,
  entityId: string,
  entity?: RecordedEvent['entity'],
): Promise<string[]> {
  return (await readEvents(platform.services.database.db, { entityId }))
    .filter((event) => entity === undefined || event.entity === entity)
    .map((event) => event.slug);
}

export const applicationCode = (answer: Answer): string | undefined =>
  answer.body?.details?.applicationError?.code;
export const violatedFields = (answer: Answer): string[] =>
  (answer.body?.details?.validationError?.fieldViolations ?? []).map((v: { field: string }) => v.field);

/** A whole purchase: `auth`'s cart of one product, checked out and paid on the hosted page. */
export async function placeOrder(
  platform: TestPlatform,
  productId: string,
  options: { auth?: string; quantity?: number } = {},
): Promise<{ auth: string; orderId: string; checkoutId: string }> {
  const shopper = await shopperCheckout(platform, [{ productId, quantity: options.quantity ?? 1 }], {
    ...(options.auth ? { auth: options.auth } : {}),
  });
  const paid = await pageCalls(
    platform,
    await checkoutSession(platform, shopper.auth, shopper.checkoutId),
  ).pay(`order-${shopper.checkoutId}`, CARDS.approved);
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
  return { auth: shopper.auth, orderId: paid.body.orderId, checkoutId: shopper.checkoutId };
}
