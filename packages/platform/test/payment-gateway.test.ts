import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCard, luhnValid } from '../src/payments/card.ts';
import { TEST_CARDS, TestGateway } from '../src/payments/test-gateway.ts';
import { DomainError } from '../src/shared/errors.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The built-in test gateway behaves like a real one: its answer per test card, a 3-D Secure step, and
 * a ledger keyed by idempotency key, so a retried call answers the first result and never charges twice.
 */
const NOW = new Date('2026-06-15T12:00:00Z');
const card = (number: string) => checkCard({ number, expiry: '12/30', cvc: '123' }, NOW);

function refusedFields(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.fieldViolations.map((violation) => violation.field);
    throw error;
  }
  return [];
}

describe('card checks', () => {
  it('accepts a valid number with spaces, keeps the last four digits and the brand, never more', () => {
    const checked = checkCard({ number: '4242 4242 4242 4242', expiry: '06/26', cvc: '1234' }, NOW);
    expect(checked).toMatchObject({ last4: '4242', brand: 'VISA', expiryMonth: 6, expiryYear: 2026 });
    expect(card('5555555555554444').brand).toBe('MASTERCARD');
    expect(card('378282246310005').brand).toBe('AMEX');
  });

  it('refuses a Luhn-invalid number, a past expiry and a bad CVC as field violations, all at once', () => {
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(
      refusedFields(() => checkCard({ number: '4242424242424241', expiry: '12/30', cvc: '123' }, NOW)),
    ).toEqual(['card.number']);
    expect(
      refusedFields(() => checkCard({ number: '4242424242424242', expiry: '05/26', cvc: '123' }, NOW)),
    ).toEqual(['card.expiry']);
    expect(
      refusedFields(() => checkCard({ number: '4242424242424242', expiry: '13/30', cvc: '123' }, NOW)),
    ).toEqual(['card.expiry']);
    expect(refusedFields(() => checkCard({ number: 'abcd', expiry: 'soon', cvc: '1' }, NOW))).toEqual([
      'card.number',
      'card.expiry',
      'card.cvc',
    ]);
  });
});

describe.each(DIALECTS)('the test gateway, on %s', (dialect) => {
  let platform: TestPlatform;
  let gateway: TestGateway;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    gateway = new TestGateway(platform.services.database.db);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const charge = (key: string, number: string, capture = true) =>
    gateway.authorize({
      idempotencyKey: key,
      amount: '10.00',
      currency: 'USD',
      method: { kind: 'card', card: card(number) },
      capture,
    });

  it('answers each test card as documented', async () => {
    expect(await charge('ok', TEST_CARDS.approved)).toMatchObject({ status: 'APPROVED', captured: true });
    expect(await charge('other', '5555555555554444')).toMatchObject({ status: 'APPROVED' });
    expect(await charge('no', TEST_CARDS.declined)).toMatchObject({
      status: 'DECLINED',
      code: 'CARD_DECLINED',
    });
    expect(await charge('poor', TEST_CARDS.insufficientFunds)).toMatchObject({
      status: 'DECLINED',
      code: 'INSUFFICIENT_FUNDS',
    });
    expect(await charge('auth-only', TEST_CARDS.approved, false)).toMatchObject({
      status: 'APPROVED',
      captured: false,
    });
  });

  it('a retried charge answers the first result and writes one ledger row', async () => {
    const results = await Promise.all([
      charge('retry', TEST_CARDS.approved),
      charge('retry', TEST_CARDS.approved),
    ]);
    const again = await charge('retry', TEST_CARDS.declined); // even a different card: the key decides
    expect(new Set([...results, again].map((result) => result.transactionId)).size).toBe(1);
    expect(again.status).toBe('APPROVED');
    const rows = await platform.services.database.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('idempotency_key', '=', 'retry')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ card_last4: '4242', card_brand: 'VISA', amount: '10.00' });
  });

  it('a 3-D Secure card waits for its step; the step is answered once', async () => {
    const pending = await charge('secure', TEST_CARDS.requiresAuthentication);
    expect(pending.status).toBe('REQUIRES_ACTION');
    const actionId = (pending as { actionId: string }).actionId;
    expect(await gateway.completeAction({ actionId, approved: true })).toMatchObject({ status: 'APPROVED' });
    expect(await gateway.completeAction({ actionId, approved: false })).toMatchObject({ status: 'APPROVED' });

    const failing = await charge('secure-fail', TEST_CARDS.requiresAuthentication);
    const failed = await gateway.completeAction({
      actionId: (failing as { actionId: string }).actionId,
      approved: false,
    });
    expect(failed).toMatchObject({ status: 'DECLINED', code: 'AUTHENTICATION_FAILED' });
  });

  it('captures an authorized charge once per key, and refuses an unknown one', async () => {
    const authorized = await charge('to-capture', TEST_CARDS.approved, false);
    const request = { idempotencyKey: 'capture-1', transactionId: authorized.transactionId, amount: '10.00' };
    expect(await gateway.capture(request)).toEqual({ status: 'SUCCEEDED' });
    expect(await gateway.capture(request)).toEqual({ status: 'SUCCEEDED' });
    const captures = await platform.services.database.db.selectFrom('gateway_captures').selectAll().execute();
    expect(captures.filter((row) => row.transaction_id === authorized.transactionId)).toHaveLength(1);
    expect(
      (await gateway.capture({ ...request, idempotencyKey: 'x', transactionId: 'unknown' })).status,
    ).toBe('FAILED');
  });
});
