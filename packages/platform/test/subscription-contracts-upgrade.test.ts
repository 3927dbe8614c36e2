import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from './catalog-http.ts';
import { DIALECTS, type TestPlatform } from './support/platform.ts';
import { startUpgradedPlatform } from './support/upgrade.ts';

/** The last migration before a contract's row carried its buyer's contact (0080). */
const BEFORE = '0079_payment_provider_customers';

/** More than the backfill's batch of 500, so its second batch runs too. */
const CONTRACTS = 503;

const contactOf = (index: number) => (index % 3 === 2 ? null : `contact-${index % 2}`);

/**
 * Contracts an earlier version wrote kept their buyer's contact only inside their document: the upgrade
 * copies it into the column the hosted query filters on, so a merchant's query by contact finds them.
 */
describe.each(DIALECTS)('subscription contracts an earlier version wrote, on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startUpgradedPlatform({ dialect, before: BEFORE }, async (db) => {
      const at = '2026-06-01T10:00:00.000Z';
      const rows = Array.from({ length: CONTRACTS }, (_, index) => ({
        id: `legacy-contract-${String(index).padStart(4, '0')}`,
        member_id: `legacy-member-${index}`,
        status: 'ACTIVE',
        first_order_id: `legacy-order-${index}`,
        doc: JSON.stringify({
          title: 'Coffee club',
          currency: 'USD',
          buyerInfo:
            contactOf(index) === null
              ? { memberId: `legacy-member-${index}` }
              : { contactId: contactOf(index) },
        }),
        source: '{}',
        frequency: 'MONTH',
        interval_count: 1,
        billing_cycles: null,
        cycles_billed: 1,
        next_billing_at: '2026-07-01T10:00:00.000Z',
        due_at: '2026-07-01T10:00:00.000Z',
        anchor_at: at,
        anchor_cycle: 1,
        provider_id: 'test-gateway',
        saved_method_id: 'pm-legacy',
        customer_id: 'cus-legacy',
        created_at: at,
        updated_at: at,
        revision: 1,
      }));
      for (let start = 0; start < rows.length; start += 100) {
        await db
          .insertInto('subscription_contracts')
          .values(rows.slice(start, start + 100))
          .execute();
      }
    });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it("copies each contract's contact from its document into the column, across batches, and leaves none made up", async () => {
    const rows = await platform.services.database.db
      .selectFrom('subscription_contracts')
      .select(['id', 'contact_id'])
      .where('id', 'like', 'legacy-contract-%')
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(CONTRACTS);
    expect(rows.map((row) => row.contact_id)).toEqual(rows.map((_, index) => contactOf(index)));
  });

  it("answers the hosted query by buyerInfo.contactId with the upgraded contracts, the last batch's included", async () => {
    const found = await admin(platform).post('/ecom/subscription-contracts/v1/subscription-contracts/query', {
      query: {
        filter: { 'buyerInfo.contactId': 'contact-1' },
        sort: [{ fieldName: '_id', order: 'DESC' }],
        cursorPaging: { limit: 2 },
      },
    });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    // the newest with contact-1: index 502 has none (502 % 3 = 2), 501 has contact-1
    expect(found.body.subscriptionContracts.map((contract: { id: string }) => contract.id)).toEqual([
      'legacy-contract-0501',
      'legacy-contract-0499',
    ]);
  });
});
