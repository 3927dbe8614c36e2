import { type Kysely, type Migration, Migrator } from 'kysely';
import { abandonedCheckoutMigrations } from '../abandoned-checkouts/migrations.ts';
import { backInStockMigrations } from '../back-in-stock/migrations.ts';
import { billingMigrations } from '../billing/migrations.ts';
import { cartMigrations } from '../carts/migrations.ts';
import { catalogMigrations } from '../catalog/migrations.ts';
import { checkoutTemplateMigrations } from '../checkout-templates/migrations.ts';
import { checkoutMigrations } from '../checkouts/migrations.ts';
import { emailMigrations } from '../email/migrations.ts';
import { eventMigrations } from '../events/migrations.ts';
import { fulfillmentMigrations } from '../fulfillments/migrations.ts';
import { identityMigrations } from '../identity/migrations.ts';
import { memberMigrations } from '../members/migrations.ts';
import { oauthMigrations } from '../oauth/migrations.ts';
import { orderViewMigrations } from '../order-views/migrations.ts';
import { orderMigrations } from '../orders/migrations.ts';
import { paymentMigrations } from '../payments/migrations.ts';
import { staffMigrations } from '../staff/migrations.ts';
import { storeSettingsMigrations } from '../store-settings/migrations.ts';
import { subscriptionMigrations } from '../subscriptions/migrations.ts';
import { webhookMigrations } from '../webhooks/migrations.ts';
import { workerMigrations } from '../workers/migrations.ts';
import { coreMigrations } from './core-migrations.ts';

/**
 * Every domain's migrations, in the order they run. Names sort: a domain added later takes the next
 * number. Written with Kysely's schema builder so one migration serves SQLite and PostgreSQL.
 */
const migrations: Record<string, Migration> = {
  ...coreMigrations,
  ...catalogMigrations,
  ...identityMigrations,
  ...memberMigrations,
  ...emailMigrations,
  ...oauthMigrations,
  ...eventMigrations, // 0014, 0040, 0044 (issue 31: each entity's event numbers)
  ...storeSettingsMigrations, // 0015
  ...cartMigrations, // 0016
  ...checkoutMigrations, // 0017, 0042, 0051 (issue 34: the abandoned-checkout scan's index)
  ...orderMigrations, // 0018
  ...paymentMigrations, // 0019, 0079 (issue 32: each member's customer at Stripe)
  ...fulfillmentMigrations, // 0027
  ...billingMigrations, // 0028, 0041 (issue 37: the sweep of started money calls)
  ...staffMigrations, // 0031 (issue 21: staff, roles, API keys, audit log), 0046 (issue 37: its operation)
  ...orderViewMigrations, // 0033 (issue 22: the back office's saved views of orders)
  ...workerMigrations, // 0040 (issue 37: the lease table of background jobs)
  ...webhookMigrations, // 0045 (issue 31: webhook endpoints, deliveries and their attempts), 0070 (the log's retention)
  ...checkoutTemplateMigrations, // 0050 (issue 34: checkout templates)
  ...abandonedCheckoutMigrations, // 0052 (issue 34: abandoned checkouts; 0051 is checkouts' scan index)
  ...backInStockMigrations, // 0071 (issue 34: back-in-stock requests and their settings)
  ...subscriptionMigrations, // 0074 (issue 34: subscription contracts and their renewals), 0080 (their contact)
};

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateToLatest());
}

/** Brings the schema to `name` and no further: how a test builds a database as an older version left it. */
export async function migrateTo(db: Kysely<any>, name: string): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate(
  db: Kysely<any>,
  run: (migrator: Migrator) => ReturnType<Migrator['migrateToLatest']>,
): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await run(migrator);
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
