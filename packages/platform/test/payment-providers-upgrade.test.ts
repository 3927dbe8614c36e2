import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrations.ts';
import { DIALECTS, type TestPlatform } from './support/platform.ts';
import { startUpgradedPlatform } from './support/upgrade.ts';

/** The last migration before payments named their provider. */
const BEFORE = '0035_order_tags_newest_first';

const AT = '2026-11-01T00:00:00.000Z';

/**
 * Before 0042 the test gateway was the only provider: the payments, attempts and charges an earlier
 * version left become the test gateway's, so their capture, void and refunds still find it; a payment
 * the merchant recorded (taken outside the platform) names no provider.
 */
describe.each(DIALECTS)('payments an earlier version took, on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startUpgradedPlatform({ dialect, before: BEFORE }, async (db, database) => {
      const payment = (id: string, offline: number) => ({
        id,
        order_id: `order-${id}`,
        amount: '10.00',
        formatted_amount: '$10.00',
        currency: 'USD',
        status: 'AUTHORIZED',
        payment_order_id: offline ? '' : `attempt-${id}`,
        gateway_transaction_id: offline ? '' : `transaction-${id}`,
        provider_transaction_id: '',
        method_name: offline ? 'Cash' : 'creditCard',
        card_brand: offline ? '' : 'VISA',
        card_last4: offline ? '' : '4242',
        delayed_capture: 1,
        authorized_at: AT,
        offline,
        created_at: AT,
        updated_at: AT,
      });
      await db
        .insertInto('order_payments')
        .values([payment('online', 0), payment('recorded', 1)])
        .execute();
      await db
        .insertInto('gateway_charges')
        .values({
          idempotency_key: 'legacy-charge',
          transaction_id: 'transaction-online',
          amount: '10.00',
          currency: 'USD',
          captured: 0,
          status: 'APPROVED',
          decline_code: null,
          action_id: null,
          card_last4: '4242',
          card_brand: 'VISA',
          created_at: AT,
          updated_at: AT,
        })
        .execute();
      await db
        .insertInto('checkout_attempts')
        .values({
          id: 'legacy-attempt',
          checkout_id: 'legacy-checkout',
          attempt_key: 'legacy-key',
          status: 'PROCESSING',
          order_id: 'order-online',
          stock: '[]',
          amount: '10.00',
          formatted_amount: '$10.00',
          currency: 'USD',
          card_last4: '4242',
          card_brand: 'VISA',
          action_id: null,
          outcome: null,
          expires_at: AT,
          created_at: AT,
          updated_at: AT,
        })
        .execute();
    });
  });
  afterAll(() => platform?.stop());

  it("makes the earlier payments, attempts and charges the test gateway's, and recorded payments no provider's", async () => {
    const db = platform.services.database.db;
    const payments = await db
      .selectFrom('order_payments')
      .select(['id', 'provider_id'])
      .orderBy('id')
      .execute();
    expect(payments).toEqual([
      { id: 'online', provider_id: 'cartwheel-test-gateway' },
      { id: 'recorded', provider_id: null },
    ]);
    const attempt = await db
      .selectFrom('checkout_attempts')
      .select('provider_id')
      .where('id', '=', 'legacy-attempt')
      .executeTakeFirstOrThrow();
    expect(attempt.provider_id).toBe('cartwheel-test-gateway');

    // the test gateway still answers for the charge it made before: it can void it
    const gateway = platform.services.payments.providers.get('cartwheel-test-gateway');
    expect(
      await gateway.void({ idempotencyKey: 'legacy-void', transactionId: 'transaction-online' }),
    ).toEqual({ status: 'SUCCEEDED' });
  });
});
