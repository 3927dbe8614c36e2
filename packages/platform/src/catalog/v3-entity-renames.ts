import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { CatalogStorage } from './storage.ts';

/**
 * A brand or ribbon renamed, written into every product that names it by one set-based statement
 * over its links (`product_entity_links`), whatever their number: the row's column, and the name its
 * record and v1 documents keep (v3 renders from the record). The product is not saved again: its
 * revision, search text and listings do not depend on the name, and the entity's own `updated`
 * event says what changed. A brand on 100,000 products costs one statement, not 100,000 saves.
 *
 * The JSON columns are JSON.stringify's text, so the name is the exact text `"brand":"<name>"`
 * (JSON-escaped): replaced as text, the same on both databases (PostgreSQL's jsonb refuses the
 * documents' `\u0000` link marks, and SQLite has no jsonb).
 */
export async function renameOnProducts(
  storage: CatalogStorage,
  trx: Transaction<Tables>,
  kind: 'brand' | 'ribbon',
  entityId: string,
  before: string,
  name: string,
): Promise<void> {
  const field = (key: string, value: unknown) => `${JSON.stringify(key)}:${JSON.stringify(value)}`;
  const swaps: Array<[string, string]> = [[field(kind, before), field(kind, name)]];
  // v1 shows a ribbon in a list too
  const docSwaps: Array<[string, string]> =
    kind === 'ribbon'
      ? [...swaps, [field('ribbons', [{ text: before }]), field('ribbons', [{ text: name }])]]
      : swaps;
  const replaced = (column: string, pairs: Array<[string, string]>): RawBuilder<string> =>
    pairs.reduce<RawBuilder<string>>(
      (text, [from, to]) => sql<string>`replace(${text}, ${from}, ${to})`,
      sql<string>`${sql.ref(column)}`,
    );
  await trx
    .updateTable('products')
    .set({
      [kind]: name,
      record: replaced('record', swaps),
      doc: replaced('doc', docSwaps),
      doc_merchant: replaced('doc_merchant', docSwaps),
    } as never)
    .where(
      'id',
      'in',
      trx
        .selectFrom('product_entity_links')
        .select('product_id')
        .where('kind', '=', kind)
        .where('entity_id', '=', entityId),
    )
    .execute();
  if (kind === 'ribbon') {
    // a ribbon beside the main one: the record's `{"id","name"}` entry, exact with its id
    const entry = (text: string) => JSON.stringify({ id: entityId, name: text });
    await trx
      .updateTable('products')
      .set({ record: replaced('record', [[entry(before), entry(name)]]) } as never)
      .where(
        'id',
        'in',
        trx
          .selectFrom('product_entity_links')
          .select('product_id')
          .where('kind', '=', 'additionalRibbon')
          .where('entity_id', '=', entityId),
      )
      .execute();
  }
  // visitors' reads show the new name; another process's within its cache's lifetime, as for any write
  storage.visitorReads.clear();
}
