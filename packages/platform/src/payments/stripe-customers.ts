import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Tables } from '../db/tables.ts';

/**
 * Each member's Customer at Stripe, the one their saved cards are attached to: made on their first
 * card saved there, then kept (`payment_provider_customers`). Two first charges at once make one: the
 * Stripe idempotency key of the member makes the second creation answer the first's Customer, and the
 * table keeps whichever row is written first.
 */
export class StripeCustomers {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly providerId: string,
    private readonly stripe: Stripe,
    private readonly keyOf: (call: string, key: string) => string,
  ) {}

  /** The Stripe Customer (`cus_...`) of the member `memberId`, made at Stripe when they have none. */
  async of(memberId: string): Promise<string> {
    const kept = await this.kept(memberId);
    if (kept) return kept;
    const customer = await this.stripe.customers.create(
      { metadata: { cartwheel_member: memberId } },
      { idempotencyKey: this.keyOf('customer', `${this.providerId}:${memberId}`) },
    );
    await this.db
      .insertInto('payment_provider_customers')
      .values({
        provider_id: this.providerId,
        member_id: memberId,
        customer_id: customer.id,
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.columns(['provider_id', 'member_id']).doNothing())
      .execute();
    return (await this.kept(memberId)) ?? customer.id;
  }

  private async kept(memberId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('payment_provider_customers')
      .select('customer_id')
      .where('provider_id', '=', this.providerId)
      .where('member_id', '=', memberId)
      .executeTakeFirst();
    return row?.customer_id;
  }
}
