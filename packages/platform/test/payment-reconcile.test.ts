import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_BUNDLE } from '../scripts/build.ts';
import { billing, buy } from './billing-support.ts';
import { admin } from './catalog-http.ts';
import { shipToUs, stockedProduct } from './checkout-support.ts';
import { as, createKey } from './staff-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const HOUR = 60 * 60 * 1000;

/**
 * Reconciliation (issue 32): the store's payments beside the provider's own records of its charges for a
 * period. A store whose books agree shows no difference; a charge the provider holds with no order, a
 * payment the provider never took, and an authorization released at the provider behind the store's
 * back each show as one difference naming the transaction. Stripe's side is read the same way
 * (`StripeProvider.charges`); here the test gateway's ledger is the provider's side.
 */
describe.each(DIALECTS)('reconciling payments with the provider, on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Reconciled Lamp', 30, 100)).id;
  });
  afterAll(() => platform?.stop());

  const today = () => ({
    from: new Date(Date.now() - HOUR).toISOString(),
    to: new Date(Date.now() + HOUR).toISOString(),
  });
  const reconcile = async (period = today()) => {
    const answer = await admin(platform).post('/api/cartwheel/payments/reconcile', period);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.reconciliation;
  };

  it('finds no difference when the books agree, then each kind of difference the provider shows', async () => {
    const sold = await buy(platform, [{ productId, quantity: 1 }]);
    const held = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const clean = await reconcile();
    expect(clean.differences).toEqual([]);
    expect(clean.providers).toEqual([
      { providerId: 'cartwheel-test-gateway', compared: true, payments: 2, charges: 2 },
    ]);

    // money taken at the provider with no order (a page that charged and died before its order was made)
    const gateway = platform.services.payments.providers.default;
    const stray = await gateway.authorize({
      idempotencyKey: 'reconcile-stray-charge',
      amount: '12.00',
      currency: 'USD',
      method: {
        kind: 'card',
        card: { number: '4242424242424242', last4: '4242', brand: 'VISA', expiryMonth: 12, expiryYear: 2040 },
      },
      capture: true,
    });
    expect(stray.status).toBe('APPROVED');
    // the authorization released at the provider (its dashboard), not through the store
    const heldPayment = (await billing(platform).transactions(held)).body.orderTransactions.payments[0];
    const voided = await gateway.void({
      idempotencyKey: 'reconcile-void-behind',
      transactionId: heldPayment.regularPaymentDetails.gatewayTransactionId,
    });
    expect(voided.status).toBe('SUCCEEDED');
    // a payment the provider has no record of
    const soldPayment = (await billing(platform).transactions(sold)).body.orderTransactions.payments[0];
    await platform.services.database.db
      .deleteFrom('gateway_charges')
      .where('transaction_id', '=', soldPayment.regularPaymentDetails.gatewayTransactionId)
      .execute();

    const found = await reconcile();
    const byKind = Object.fromEntries(
      found.differences.map((difference: { kind: string }) => [difference.kind, difference]),
    );
    expect(Object.keys(byKind).sort()).toEqual(['NOT_AT_PROVIDER', 'NOT_IN_CARTWHEEL', 'STATE_DIFFERS']);
    expect(byKind.NOT_IN_CARTWHEEL).toMatchObject({
      transactionId: stray.status === 'APPROVED' ? stray.transactionId : '',
      orderId: null,
      cartwheel: null,
      provider: { amount: '12.00', currency: 'USD', state: 'CAPTURED' },
    });
    expect(byKind.NOT_AT_PROVIDER).toMatchObject({ orderId: sold, provider: null });
    expect(byKind.STATE_DIFFERS).toMatchObject({
      orderId: held,
      cartwheel: { state: 'AUTHORIZED' },
      provider: { state: 'CANCELED' },
    });

    // a period before any of it has nothing to show
    const before = await reconcile({
      from: new Date(Date.now() - 48 * HOUR).toISOString(),
      to: new Date(Date.now() - 24 * HOUR).toISOString(),
    });
    expect(before.differences).toEqual([]);
  });

  it('the reconcile command prints what the call answers and exits 1 on a difference, 0 on none', () => {
    const run = (period: { from: string; to: string }) =>
      spawnSync(
        process.execPath,
        [PLATFORM_BUNDLE, 'reconcile', `--from=${period.from}`, `--to=${period.to}`],
        {
          env: {
            ...process.env,
            DATA_DIR: platform.database.dataDir,
            DATABASE_URL: platform.database.databaseUrl ?? '',
            CARTWHEEL_ADMIN_API_KEY: platform.adminApiKey,
            LOG_LEVEL: 'silent',
          },
          encoding: 'utf8',
        },
      );
    // the first test's three differences are still in the books
    const found = run(today());
    expect(found.status, found.stderr).toBe(1);
    expect(
      JSON.parse(found.stdout)
        .differences.map((difference: { kind: string }) => difference.kind)
        .sort(),
    ).toEqual(['NOT_AT_PROVIDER', 'NOT_IN_CARTWHEEL', 'STATE_DIFFERS']);
    const quiet = run({
      from: new Date(Date.now() - 48 * HOUR).toISOString(),
      to: new Date(Date.now() - 24 * HOUR).toISOString(),
    });
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(JSON.parse(quiet.stdout).differences).toEqual([]);
  });

  it('refuses a period that is not one, and callers who may not see the store’s money', async () => {
    for (const [period, field] of [
      [{ from: 'yesterday', to: new Date().toISOString() }, 'from'],
      [{ from: new Date().toISOString(), to: new Date(Date.now() - HOUR).toISOString() }, 'to'],
      [{ from: '2020-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'to'],
    ] as const) {
      const refused = await admin(platform).post('/api/cartwheel/payments/reconcile', period);
      expect(refused.status).toBe(400);
      expect(refused.body.details.validationError.fieldViolations[0].field).toBe(field);
    }
    const reader = (await createKey(platform, platform.adminApiKey, ['orders.read'])).key;
    expect((await as(platform, reader).post('/api/cartwheel/payments/reconcile', today())).status).toBe(403);
  });
});
