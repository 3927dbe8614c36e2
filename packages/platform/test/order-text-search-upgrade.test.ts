import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrations.ts';
import { admin } from './catalog-http.ts';
import { DIALECTS, type TestPlatform } from './support/platform.ts';
import { startUpgradedPlatform } from './support/upgrade.ts';

/** The last migration before orders had a search text. */
const BEFORE = '0042_payment_providers';

/**
 * Orders an earlier version stored are found by part of their email or name as soon as the store is
 * upgraded: the migration fills their search text and its trigram index from the columns they have.
 */
describe.each(DIALECTS)('orders an earlier version stored, searched on %s', (dialect) => {
  let platform: TestPlatform;
  const stored = [
    { id: 'legacy-ann', email: 'ann.smith@example.com', first: 'Ann', last: 'Smith', number: 900 },
    { id: 'legacy-ada', email: 'carla@example.com', first: 'Ada', last: 'Lovelace', number: 901 },
    { id: 'legacy-none', email: null, first: null, last: null, number: 902 },
  ];

  beforeAll(async () => {
    platform = await startUpgradedPlatform({ dialect, before: BEFORE }, async (db, database) => {
      await db
        .insertInto('orders')
        .values(
          stored.map((order, index) => ({
            id: order.id,
            number: order.number,
            status: 'APPROVED',
            payment_status: 'PAID',
            fulfillment_status: 'NOT_FULFILLED',
            checkout_id: null,
            visitor_id: 'v-legacy',
            member_id: null,
            buyer_email: order.email,
            billing_first_name: order.first,
            billing_last_name: order.last,
            created_at: `2026-01-0${index + 1}T10:00:00.000Z`,
            updated_at: `2026-01-0${index + 1}T10:00:00.000Z`,
            doc: JSON.stringify({
              buyerInfo: order.email ? { email: order.email } : {},
              billingInfo: { contactDetails: { firstName: order.first, lastName: order.last } },
            }),
            total_amount: 10,
          })),
        )
        .execute();
    });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const found = async (expression: string) => {
    const answer = await admin(platform).post('/ecom/v1/orders/search', {
      search: { search: { expression } },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.orders.map((order: { id: string }) => order.id);
  };

  it('finds them by part of an email or a name, and a prefix of a name by its range', async () => {
    expect(await found('nn.smith@exa')).toEqual(['legacy-ann']);
    expect(await found('example.com')).toEqual(['legacy-ada', 'legacy-ann']);
    expect(await found('LOVEL')).toEqual(['legacy-ada']);
    expect(await found('sm')).toEqual(['legacy-ann']);
    expect(await found('#902')).toEqual(['legacy-none']);
  });

  it('keeps the index in step with a change made after the upgrade', async () => {
    const changed = await admin(platform).patch('/ecom/v1/orders/legacy-none', {
      order: { id: 'legacy-none', buyerInfo: { email: 'late.comer@example.org' } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await found('comer@exa')).toEqual(['legacy-none']);
  });
});
