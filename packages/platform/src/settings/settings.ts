import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';

/** Site-wide settings, one row a key: signing secret, admin key hash, store name, ... */
export class Settings {
  constructor(private readonly db: Kysely<Tables>) {}

  async get(key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  async set(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /**
   * The value of `key`, creating it with `create()` if absent. Safe when several processes start at
   * once over one database: the first insert wins and everyone reads the winner.
   */
  async getOrCreate(key: string, create: () => string): Promise<{ value: string; created: boolean }> {
    const existing = await this.get(key);
    if (existing !== undefined) return { value: existing, created: false };
    const candidate = create();
    const inserted = await this.db
      .insertInto('settings')
      .values({ key, value: candidate })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    const created = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    return { value: created ? candidate : ((await this.get(key)) as string), created };
  }
}
