import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import { applicationError } from '../shared/errors.ts';
import type { CatalogEntityKind, CatalogEntityRow } from './tables.ts';
import { documentOf } from './v3-rich-content.ts';

/**
 * The rows of the v3 catalog's brands, ribbons, info sections and customizations (`catalog_entities`),
 * one kind a call: read, write with the entity's event in the same transaction, render for the wire.
 * The calls (v3-entities.ts) and the product writes that name one by name (v3-references.ts) share
 * these, so an entity a product write makes is made as a create call makes it.
 */

export type EntityRow = Selectable<CatalogEntityRow>;

/** What one entity is, column by column, without its id, revision and dates. */
export interface EntityValues {
  name: string;
  uniqueKey: string | null;
  uniqueName: string | null;
  type: string | null;
  renderType: string | null;
  /** The kind's own fields beyond the columns. */
  doc: Record<string, unknown>;
}

/** The wire's name of an entity's products count: ribbons spell it in the singular. */
export const COUNT_FIELD: Record<CatalogEntityKind, string> = {
  brand: 'assignedProductsCount',
  ribbon: 'assignedProductCount',
  infoSection: 'assignedProductsCount',
  customization: 'assignedProductsCount',
};

/** How each kind is named in messages and error codes. */
export const ENTITY_LABEL: Record<CatalogEntityKind, string> = {
  brand: 'brand',
  ribbon: 'ribbon',
  infoSection: 'info section',
  customization: 'customization',
};

type Db = Kysely<Tables> | Transaction<Tables>;

export async function entityById(
  db: Db,
  kind: CatalogEntityKind,
  id: string,
): Promise<EntityRow | undefined> {
  return db
    .selectFrom('catalog_entities')
    .selectAll()
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function entitiesByIds(db: Db, kind: CatalogEntityKind, ids: string[]): Promise<EntityRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('catalog_entities')
    .selectAll()
    .where('kind', '=', kind)
    .where('id', 'in', ids)
    .execute();
}

export async function entityByKey(
  db: Db,
  kind: CatalogEntityKind,
  key: string,
): Promise<EntityRow | undefined> {
  return db
    .selectFrom('catalog_entities')
    .selectAll()
    .where('kind', '=', kind)
    .where('unique_key', '=', key)
    .executeTakeFirst();
}

/** Refuses a unique key another entity of the kind has (a brand's name, an info section's unique name). */
async function checkUnique(
  trx: Transaction<Tables>,
  kind: CatalogEntityKind,
  values: EntityValues,
  id: string,
) {
  if (values.uniqueKey === null) return;
  const clash = await entityByKey(trx, kind, values.uniqueKey);
  if (clash && clash.id !== id) throw alreadyExists(kind, values.uniqueKey, clash.id);
}

function alreadyExists(kind: CatalogEntityKind, key: string, id?: string) {
  const label = ENTITY_LABEL[kind];
  return applicationError(
    'ALREADY_EXISTS',
    `${label.toUpperCase().replace(/\s+/g, '_')}_ALREADY_EXISTS`,
    `a ${label} ${JSON.stringify(key)} exists already`,
    id ? { id } : undefined,
  );
}

/** Whether the database refused a row for a unique index (another writer's entity of that key won). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = String((error as { message?: unknown })?.message ?? '');
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || message.includes('UNIQUE constraint');
}

const columns = (values: EntityValues) => ({
  name: values.name,
  name_lower: values.name.toLowerCase(),
  unique_key: values.uniqueKey,
  unique_name: values.uniqueName,
  type: values.type,
  render_type: values.renderType,
  doc: JSON.stringify(values.doc),
});

/**
 * Writes a new entity and its `created` event. Another writer's entity of the same unique key, made
 * meanwhile, is refused `ALREADY_EXISTS`, or answered instead with `orExisting` (get-or-create).
 */
export async function insertEntity(
  trx: Transaction<Tables>,
  kind: CatalogEntityKind,
  id: string,
  values: EntityValues,
  options: { orExisting?: boolean } = {},
): Promise<EntityRow> {
  const existing = values.uniqueKey === null ? undefined : await entityByKey(trx, kind, values.uniqueKey);
  if (existing && options.orExisting) return existing;
  if (existing) throw alreadyExists(kind, values.uniqueKey as string, existing.id);
  const now = new Date().toISOString();
  const row: EntityRow = { id, kind, revision: 1, created_date: now, updated_date: now, ...columns(values) };
  // one of two concurrent writers of a key inserts; the other waits for it and inserts nothing
  const inserted = await trx
    .insertInto('catalog_entities')
    .values(row)
    .onConflict((conflict) => conflict.columns(['kind', 'unique_key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    const winner = await entityByKey(trx, kind, values.uniqueKey as string);
    if (winner && options.orExisting) return winner;
    throw alreadyExists(kind, values.uniqueKey as string, winner?.id);
  }
  await recordEvents(trx, [entityEvent(row, 'created')]);
  return row;
}

/** Writes an entity's new values at the next revision, and its `updated` event. */
export async function updateEntity(
  trx: Transaction<Tables>,
  row: EntityRow,
  values: EntityValues,
): Promise<EntityRow> {
  await checkUnique(trx, row.kind, values, row.id);
  const next: EntityRow = {
    ...row,
    ...columns(values),
    revision: row.revision + 1,
    updated_date: new Date().toISOString(),
  };
  const { id: _, kind: __, ...changes } = next;
  try {
    await trx.updateTable('catalog_entities').set(changes).where('id', '=', row.id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(row.kind, values.uniqueKey as string);
    throw error;
  }
  await recordEvents(trx, [entityEvent(next, 'updated')]);
  return next;
}

export async function deleteEntity(trx: Transaction<Tables>, row: EntityRow): Promise<void> {
  await trx.deleteFrom('catalog_entities').where('id', '=', row.id).execute();
  await recordEvents(trx, [entityEvent(row, 'deleted')]);
}

function entityEvent(row: EntityRow, slug: 'created' | 'updated' | 'deleted'): DomainEvent {
  return { entity: row.kind, slug, entityId: row.id, payload: { entity: renderEntity(row) } };
}

export const valuesOf = (row: EntityRow): EntityValues => ({
  name: row.name,
  uniqueKey: row.unique_key,
  uniqueName: row.unique_name,
  type: row.type,
  renderType: row.render_type,
  doc: JSON.parse(row.doc) as Record<string, unknown>,
});

/** The entity as the wire shows it; `productCount` when the read asked for it. */
export function renderEntity(row: EntityRow, productCount?: number): Record<string, unknown> {
  const doc = JSON.parse(row.doc) as Record<string, unknown>;
  const own: Record<string, unknown> =
    row.kind === 'infoSection'
      ? {
          uniqueName: row.unique_name,
          title: row.name,
          ...doc,
          description: doc.description ?? documentOf(String(doc.plainDescription ?? '')),
        }
      : row.kind === 'customization'
        ? {
            key: row.name,
            name: row.name,
            customizationType: row.type,
            customizationRenderType: row.render_type,
            ...doc,
          }
        : { name: row.name };
  return {
    id: row.id,
    revision: String(row.revision),
    createdDate: row.created_date,
    updatedDate: row.updated_date,
    ...own,
    ...(productCount !== undefined ? { [COUNT_FIELD[row.kind]]: productCount } : {}),
  };
}
