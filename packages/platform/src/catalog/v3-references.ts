import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { newId } from '../shared/ids.ts';
import type { ProductRecord } from './model.ts';
import type { ProductLinkKind } from './tables.ts';
import { assignedOf, refreshedFrom } from './v3-assigned-customizations.ts';
import { entitiesByIds, entityById, entityByKey, insertEntity } from './v3-entity-rows.ts';
import { brandIdOf, ribbonIdOf } from './v3-model.ts';
import type { RichContent } from './v3-rich-content.ts';
import { Violations } from './validation.ts';

/**
 * A product's brand, ribbon and info sections as entities, at every save (product-rows.ts
 * `saveProduct`), v1 or v3:
 *
 * - v3 names a brand or ribbon by id (it must exist: its name is copied onto the record, where v1
 *   reads it) or by name; a name, v1's way, is the entity of that name, made when there is none
 *   (with the id v3 showed for the name before brands were entities, when free);
 * - v3 names info sections by id: their titles and descriptions are copied into the record's
 *   `additionalInfoSections`, which v1 shows; a v1 write of its own sections leaves the entities;
 * - `product_entity_links` says which products refer to which entity, so an entity's change or
 *   deletion reaches its products (v3-entities.ts) and its products are counted.
 */
export async function resolveReferences(
  trx: Transaction<Tables>,
  record: ProductRecord,
  previous: ProductRecord | undefined,
): Promise<void> {
  const v = new Violations();
  await named(trx, v, record, previous, 'brand');
  await named(trx, v, record, previous, 'ribbon');
  await additionalRibbons(trx, v, record, previous);
  await infoSections(trx, v, record, previous);
  await customizationCopies(trx, v, record);
  v.throwIfAny();
}

/**
 * The copies of the customizations the record's options and modifiers are, made again from them as
 * they are in this transaction (v3-assigned-customizations.ts): one renamed since the write read it
 * is saved renamed; one gone is a field violation.
 */
async function customizationCopies(
  trx: Transaction<Tables>,
  v: Violations,
  record: ProductRecord,
): Promise<void> {
  const modifiers = record.modifiers ?? [];
  const ids = [...record.options, ...modifiers].flatMap((entry) =>
    entry.customizationId ? [entry.customizationId] : [],
  );
  if (ids.length === 0) return;
  const found = new Map(
    (await entitiesByIds(trx, 'customization', [...new Set(ids)])).map((row) => [row.id, assignedOf(row)]),
  );
  for (const [list, entries] of [
    ['options', record.options],
    ['modifiers', modifiers],
  ] as const) {
    for (const [index, entry] of entries.entries()) {
      if (entry.customizationId && !found.has(entry.customizationId))
        v.add(`product.${list}[${index}].id`, 'names no customization', 'VALIDATION');
    }
  }
  let next = record;
  for (const customization of found.values()) next = refreshedFrom(next, customization);
  record.options = next.options;
  if (next.modifiers) record.modifiers = next.modifiers;
}

/** Rewrites the product's links when the entities it refers to changed. */
export async function writeLinks(
  trx: Transaction<Tables>,
  record: ProductRecord,
  previous: ProductRecord | undefined,
): Promise<void> {
  const links = linksOf(record);
  if (previous && JSON.stringify(links) === JSON.stringify(linksOf(previous))) return;
  if (previous) await trx.deleteFrom('product_entity_links').where('product_id', '=', record.id).execute();
  if (links.length === 0) return;
  await trx
    .insertInto('product_entity_links')
    .values(links.map((link) => ({ product_id: record.id, ...link })))
    .execute();
}

type Link = { kind: ProductLinkKind; entity_id: string; position: number };

/** The entities a record refers to; a name without an id (an older record) by the id it was given. */
function linksOf(record: ProductRecord): Link[] {
  const links: Link[] = [];
  const brand = record.brandId ?? (record.brand ? brandIdOf(record.brand) : undefined);
  const ribbon = record.ribbonId ?? (record.ribbon ? ribbonIdOf(record.ribbon) : undefined);
  if (brand) links.push({ kind: 'brand', entity_id: brand, position: 0 });
  if (ribbon) links.push({ kind: 'ribbon', entity_id: ribbon, position: 0 });
  for (const [position, section] of (record.infoSections ?? []).entries()) {
    links.push({ kind: 'infoSection', entity_id: section.id, position });
  }
  // options, then modifiers, that are customizations (v3-assigned-customizations.ts)
  const assigned = [...record.options, ...(record.modifiers ?? [])].flatMap((entry) =>
    entry.customizationId ? [entry.customizationId] : [],
  );
  for (const [position, customizationId] of assigned.entries()) {
    links.push({ kind: 'customization', entity_id: customizationId, position });
  }
  for (const [position, additional] of (record.additionalRibbons ?? []).entries()) {
    links.push({ kind: 'additionalRibbon', entity_id: additional.id, position });
  }
  // tags are ids without entities: their links let queries filter on them
  for (const [position, tagId] of (record.tags?.publicTagIds ?? []).entries()) {
    links.push({ kind: 'publicTag', entity_id: tagId, position });
  }
  for (const [position, tagId] of (record.tags?.privateTagIds ?? []).entries()) {
    links.push({ kind: 'privateTag', entity_id: tagId, position });
  }
  return links;
}

const DERIVED_ID = { brand: brandIdOf, ribbon: ribbonIdOf } as const;

async function named(
  trx: Transaction<Tables>,
  v: Violations,
  record: ProductRecord,
  previous: ProductRecord | undefined,
  kind: 'brand' | 'ribbon',
): Promise<void> {
  const idKey = kind === 'brand' ? 'brandId' : 'ribbonId';
  const id = record[idKey];
  const name = record[kind].trim();
  if (id && id !== previous?.[idKey]) {
    // named by id (v3): the entity's name is the record's
    const entity = await entityById(trx, kind, id);
    if (!entity) v.add(`product.${kind}.id`, `names no ${kind}`, 'VALIDATION');
    else record[kind] = entity.name;
    return;
  }
  if (!name) {
    delete record[idKey];
    record[kind] = '';
    return;
  }
  if (id && name === previous?.[kind]) return;
  // named by name (v1, or v3 by name): that entity, or a new one
  const entity = await entityOfName(trx, kind, name);
  record[idKey] = entity.id;
  record[kind] = entity.name;
}

/** The brand or ribbon of this name, made when there is none. */
async function entityOfName(trx: Transaction<Tables>, kind: 'brand' | 'ribbon', name: string) {
  return (
    (await entityByKey(trx, kind, name)) ??
    (await insertEntity(
      trx,
      kind,
      await freeId(trx, DERIVED_ID[kind](name)),
      { name, uniqueKey: name, uniqueName: null, type: null, renderType: null, doc: {} },
      { orExisting: true },
    ))
  );
}

/**
 * The ribbons beside the main one, each by id (it must exist) or by name (found or made), as the
 * main ribbon is; a ribbon is assigned once: not twice in the list, nor the main one again (the
 * hosted rule).
 */
async function additionalRibbons(
  trx: Transaction<Tables>,
  v: Violations,
  record: ProductRecord,
  previous: ProductRecord | undefined,
): Promise<void> {
  const listed = record.additionalRibbons ?? [];
  if (listed.length === 0) {
    delete record.additionalRibbons;
    return;
  }
  const before = new Map((previous?.additionalRibbons ?? []).map((ribbon) => [ribbon.id, ribbon.name]));
  const seen = new Set<string>(record.ribbonId ? [record.ribbonId] : []);
  const kept: Array<{ id: string; name: string }> = [];
  for (const [index, ribbon] of listed.entries()) {
    const path = `product.additionalRibbons[${index}]`;
    let entity: { id: string; name: string } | undefined;
    if (ribbon.id && before.has(ribbon.id)) entity = { id: ribbon.id, name: before.get(ribbon.id)! };
    else if (ribbon.id) {
      const row = await entityById(trx, 'ribbon', ribbon.id);
      if (!row) v.add(`${path}.id`, 'names no ribbon', 'VALIDATION');
      else entity = { id: row.id, name: row.name };
    } else {
      const row = await entityOfName(trx, 'ribbon', ribbon.name);
      entity = { id: row.id, name: row.name };
    }
    if (!entity) continue;
    if (seen.has(entity.id)) {
      v.add(
        path,
        entity.id === record.ribbonId
          ? "is the product's main ribbon: a ribbon is assigned to a product once"
          : 'names a ribbon listed before it: a ribbon is assigned to a product once',
        'VALIDATION',
      );
      continue;
    }
    seen.add(entity.id);
    kept.push({ id: entity.id, name: entity.name });
  }
  record.additionalRibbons = kept;
}

/** `preferred` when no entity has it (a renamed brand keeps the id its first name gave it), else a new id. */
async function freeId(trx: Transaction<Tables>, preferred: string): Promise<string> {
  const taken = await trx
    .selectFrom('catalog_entities')
    .select('id')
    .where('id', '=', preferred)
    .executeTakeFirst();
  return taken ? newId() : preferred;
}

async function infoSections(
  trx: Transaction<Tables>,
  v: Violations,
  record: ProductRecord,
  previous: ProductRecord | undefined,
): Promise<void> {
  const sameRefs = JSON.stringify(record.infoSections ?? []) === JSON.stringify(previous?.infoSections ?? []);
  const sameSections =
    JSON.stringify(record.additionalInfoSections) === JSON.stringify(previous?.additionalInfoSections ?? []);
  if (previous && sameRefs && !sameSections) {
    // a v1 write of the product's own sections: they are no longer the entities'
    delete record.infoSections;
    return;
  }
  const refs = record.infoSections ?? [];
  if (refs.length === 0) {
    delete record.infoSections;
    return;
  }
  const rows = new Map(
    (
      await entitiesByIds(
        trx,
        'infoSection',
        refs.flatMap((ref) => (ref.id ? [ref.id] : [])),
      )
    ).map((row) => [row.id, row]),
  );
  // a section named by its unique name alone (v3 takes either)
  for (const ref of refs) {
    if (ref.id || !ref.uniqueName) continue;
    const row = await entityByKey(trx, 'infoSection', ref.uniqueName);
    if (row) {
      ref.id = row.id;
      rows.set(row.id, row);
    }
  }
  const kept = refs.filter((ref, index) => {
    if (rows.has(ref.id)) return true;
    v.add(`product.infoSections[${index}]`, 'names no info section', 'VALIDATION');
    return false;
  });
  const docs = new Map(
    kept.map((ref) => [
      ref.id,
      JSON.parse(rows.get(ref.id)!.doc) as { plainDescription?: string | null; description?: RichContent },
    ]),
  );
  record.infoSections = kept.map((ref) => {
    const description = docs.get(ref.id)?.description;
    return {
      id: ref.id,
      uniqueName: rows.get(ref.id)!.unique_name ?? '',
      ...(description ? { description } : {}),
    };
  });
  record.additionalInfoSections = kept.map((ref) => ({
    title: rows.get(ref.id)!.name,
    description: docs.get(ref.id)?.plainDescription ?? '',
  }));
}
