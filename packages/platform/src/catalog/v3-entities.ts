import { sql, type Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { applicationError, DomainError, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { ProductRecord } from './model.ts';
import { lockRecord, saveProduct } from './product-rows.ts';
import { compileFilter, orderBy, parseSort } from './query.ts';
import type { CatalogStorage } from './storage.ts';
import type { CatalogEntityKind, ProductLinkKind } from './tables.ts';
import { assignedOf, refreshedFrom } from './v3-assigned-customizations.ts';
import type { EntityKind, StoredChoice } from './v3-entity-kinds.ts';
import { renameOnProducts } from './v3-entity-renames.ts';
import {
  deleteEntity,
  ENTITY_LABEL,
  type EntityRow,
  entityById,
  insertEntity,
  renderEntity,
  updateEntity,
  valuesOf,
} from './v3-entity-rows.ts';
import type { CustomizationChoiceInput, EntityFieldsInput } from './v3-entity-schemas.ts';
import { ribbonIdOf } from './v3-model.ts';
import { bulk } from './v3-products.ts';
import { checkFilter, cursorMetadata, readCursorPage } from './v3-query.ts';
import { Violations } from './validation.ts';

/** A v3 query's input: the cursor query, as the products' (v3-query.ts). */
interface QueryInput {
  query?: Parameters<typeof readCursorPage>[0];
  fields?: EntityFieldsInput;
}

/**
 * The v3 catalog's brands, ribbons, info sections and customizations: one instance per kind
 * (v3-entity-kinds.ts), each call one transaction. What a change does to the products that refer to
 * the entity is the hosted platform's:
 *
 * - a brand, ribbon or info section renamed or rewritten is shown so by its products at once (their
 *   records keep the name v1 reads, so each is saved again, as a product write);
 * - deleted, it leaves its products (a brand's products appear unbranded);
 * - a customization a product's option or modifier is (v3-assigned-customizations.ts) is written into
 *   its copies on the products when it changes, and may not be deleted while a product uses it.
 */
export class CatalogEntitiesV3 {
  private readonly label: string;

  constructor(
    private readonly storage: CatalogStorage,
    readonly spec: EntityKind,
  ) {
    this.label = ENTITY_LABEL[spec.kind];
  }

  async get(id: string, fields: EntityFieldsInput): Promise<Record<string, unknown>> {
    const row = await entityById(this.storage.db, this.spec.kind, id);
    if (!row) throw notFound(this.label, id);
    return this.answer(this.storage.db, row, fields);
  }

  async create(input: Record<string, unknown>, fields: EntityFieldsInput): Promise<Record<string, unknown>> {
    return this.storage.write(async (trx) => this.answer(trx, await this.createIn(trx, input), fields));
  }

  async update(
    id: string,
    input: Record<string, unknown>,
    fields: EntityFieldsInput,
  ): Promise<Record<string, unknown>> {
    return this.storage.write(async (trx) => this.answer(trx, await this.updateIn(trx, id, input), fields));
  }

  async delete(id: string): Promise<void> {
    await this.storage.write((trx) => this.deleteIn(trx, id));
  }

  /** The entity of this name, made when there is none (brands and ribbons). */
  async getOrCreate(name: string, fields: EntityFieldsInput): Promise<Record<string, unknown>> {
    return this.storage.write(async (trx) => this.answer(trx, await this.getOrCreateIn(trx, name), fields));
  }

  async bulkCreate(
    inputs: Record<string, unknown>[],
    returnEntity: boolean | undefined,
    fields: EntityFieldsInput,
  ) {
    const answer = await bulk(
      inputs,
      (input) =>
        this.storage.write(async (trx) => {
          const row = await this.createIn(trx, input);
          return { id: row.id, item: returnEntity ? await this.render(trx, row, fields) : undefined };
        }),
      () => undefined,
    );
    return this.itemsUnderKey(answer);
  }

  async bulkUpdate(
    inputs: Record<string, unknown>[],
    returnEntity: boolean | undefined,
    fields: EntityFieldsInput,
  ) {
    const entityOf = (item: Record<string, unknown>) =>
      (item[this.spec.one] ?? {}) as Record<string, unknown>;
    const answer = await bulk(
      inputs,
      (item) =>
        this.storage.write(async (trx) => {
          const input = entityOf(item);
          if (typeof input.id !== 'string' || input.id === '') {
            const path = `${this.spec.one}.id`;
            throw new DomainError('INVALID_ARGUMENT', `${path} is required`, [], {
              code: 'INVALID_ARGUMENT',
              description: `${path} is required`,
            });
          }
          const row = await this.updateIn(trx, input.id, input);
          return { id: row.id, item: returnEntity ? await this.render(trx, row, fields) : undefined };
        }),
      (item) => (typeof entityOf(item).id === 'string' ? (entityOf(item).id as string) : undefined),
    );
    return this.itemsUnderKey(answer);
  }

  /** A bulk answer with each entity where the kind's hosted answer has it (`bulkItemKey`). */
  private itemsUnderKey<T extends { results: Array<{ item?: unknown }> }>(answer: T): T {
    const key = this.spec.bulkItemKey;
    if (key === 'item') return answer;
    const results = answer.results.map(({ item, ...rest }) =>
      item === undefined ? rest : { ...rest, [key]: item },
    );
    return { ...answer, results };
  }

  async bulkDelete(ids: string[]) {
    return bulk(
      ids,
      async (id) => {
        await this.delete(id);
        return { id };
      },
      (id) => id,
    );
  }

  async bulkGetOrCreate(names: string[], fields: EntityFieldsInput) {
    return bulk(
      names,
      (name) =>
        this.storage.write(async (trx) => {
          const row = await this.getOrCreateIn(trx, name);
          return { id: row.id, item: await this.render(trx, row, fields) };
        }),
      () => undefined,
    );
  }

  /** A page of the kind's entities: the v3 filter and sort, newest first by default, a cursor to go on. */
  async query(request: QueryInput): Promise<Record<string, unknown>> {
    const page = readCursorPage(request.query);
    const path = 'query.filter';
    checkFilter(page.filter, this.spec.fields, path);
    const order = orderBy(
      parseSort(page.sort, this.spec.sort, 'e.id', { fieldName: 'createdDate', order: 'DESC' }, 'query.sort'),
    );
    const rows = await this.storage.db
      .selectFrom('catalog_entities as e')
      .selectAll('e')
      .where('e.kind', '=', this.spec.kind)
      .where(compileFilter(page.filter, this.spec.fields, {}, path))
      .orderBy(order)
      .limit(page.limit + 1)
      .offset(page.offset)
      .execute();
    const shown = rows.slice(0, page.limit);
    const counts = this.wantsCount(request.fields)
      ? await productCounts(
          this.storage.db,
          this.spec.kind,
          shown.map((row) => row.id),
        )
      : undefined;
    return {
      [this.spec.many]: shown.map((row) => renderEntity(row, counts ? (counts.get(row.id) ?? 0) : undefined)),
      pagingMetadata: cursorMetadata(page, shown.length, rows.length > page.limit),
    };
  }

  async count(filter: unknown): Promise<{ count: number }> {
    checkFilter(filter, this.spec.fields, 'filter');
    const row = await this.storage.db
      .selectFrom('catalog_entities as e')
      .select(sql<number>`count(*)`.as('count'))
      .where('e.kind', '=', this.spec.kind)
      .where(compileFilter(filter, this.spec.fields, {}, 'filter'))
      .executeTakeFirstOrThrow();
    return { count: Number(row.count) };
  }

  // ---- in a transaction ----

  private async createIn(trx: Transaction<Tables>, input: Record<string, unknown>): Promise<EntityRow> {
    const v = new Violations();
    const values = this.spec.apply(v, input, undefined, this.spec.one);
    v.throwIfAny();
    return insertEntity(trx, this.spec.kind, newId(), values);
  }

  /**
   * Rewrites a customization's choices (its choice calls, v3-customization-choices.ts): `change` makes
   * the new list from the stored one, which is then checked as an update's; `revision`, when the call
   * names one, must be the stored one. One transaction, the entity locked.
   */
  async changeChoices(
    id: string,
    revision: string | undefined,
    change: (choices: StoredChoice[]) => CustomizationChoiceInput[],
    fields: EntityFieldsInput,
  ): Promise<Record<string, unknown>> {
    return this.storage.write(async (trx) => {
      const row = await this.lock(trx, id);
      if (revision !== undefined) this.checkRevision(row, revision);
      const stored = (valuesOf(row).doc.choicesSettings as { choices?: StoredChoice[] } | undefined)?.choices;
      const choices = change(stored ?? []);
      return this.answer(trx, await this.rewrite(trx, row, { choicesSettings: { choices } }), fields);
    });
  }

  private checkRevision(row: EntityRow, revision: unknown): void {
    if (String(revision) === String(row.revision)) return;
    throw applicationError(
      'ABORTED',
      'REVISION_MISMATCH',
      `${this.label} ${row.id} is at revision ${row.revision}, not ${String(revision)}: read it again and retry`,
      { id: row.id, revision: String(row.revision) },
    );
  }

  private async updateIn(
    trx: Transaction<Tables>,
    id: string,
    input: Record<string, unknown>,
  ): Promise<EntityRow> {
    const row = await this.lock(trx, id);
    const revision = input.revision;
    if (revision === undefined || revision === null || revision === '') {
      const v = new Violations();
      v.add(`${this.spec.one}.revision`, 'is required', 'REQUIRED_FIELD');
      v.throwIfAny();
    }
    this.checkRevision(row, revision);
    return this.rewrite(trx, row, input);
  }

  private async rewrite(trx: Transaction<Tables>, row: EntityRow, input: Record<string, unknown>) {
    const id = row.id;
    const v = new Violations();
    const values = this.spec.apply(v, input, valuesOf(row), this.spec.one);
    v.throwIfAny();
    const next = await updateEntity(trx, row, values);
    // what its products copy of it (a name, a title, a description) is theirs at once
    const kind = this.spec.kind;
    if (kind === 'brand' || kind === 'ribbon') {
      if (next.name !== row.name) await renameOnProducts(this.storage, trx, kind, id, row.name, next.name);
    } else if (kind === 'customization') {
      // the options and modifiers that are it keep copies of its name and choices
      if (next.name !== row.name || next.doc !== row.doc) {
        const customization = assignedOf(next);
        await this.changeProducts(trx, id, (record) => refreshedFrom(record, customization));
      }
    } else if (next.name !== row.name || next.doc !== row.doc || next.unique_name !== row.unique_name) {
      // info sections are copied again by every save (v3-references.ts)
      await this.changeProducts(trx, id, (record) => record);
    }
    return next;
  }

  private async deleteIn(trx: Transaction<Tables>, id: string): Promise<void> {
    const row = await this.lock(trx, id);
    if (this.spec.kind === 'customization') {
      const used = await productCounts(trx, 'customization', [id]);
      if ((used.get(id) ?? 0) > 0) {
        throw applicationError(
          'FAILED_PRECONDITION',
          'NOT_ALLOWED_DELETE_CUSTOMIZATION_ASSIGNED_TO_PRODUCT',
          `customization ${id} is assigned to products`,
          { id },
        );
      }
    }
    await this.changeProducts(trx, id, (record) => {
      if (this.spec.kind === 'brand') {
        record.brand = '';
        delete record.brandId;
      }
      if (this.spec.kind === 'ribbon') {
        if ((record.ribbonId ?? (record.ribbon ? ribbonIdOf(record.ribbon) : undefined)) === id) {
          record.ribbon = '';
          delete record.ribbonId;
        }
        record.additionalRibbons = (record.additionalRibbons ?? []).filter((ribbon) => ribbon.id !== id);
      }
      if (this.spec.kind === 'infoSection') {
        const keep = (record.infoSections ?? []).map((ref) => ref.id !== id);
        record.infoSections = (record.infoSections ?? []).filter((_, index) => keep[index]);
        record.additionalInfoSections = record.additionalInfoSections.filter((_, index) => keep[index]);
      }
      return record;
    });
    await trx
      .deleteFrom('product_entity_links')
      .where('kind', 'in', linkKindsOf(this.spec.kind))
      .where('entity_id', '=', id)
      .execute();
    await deleteEntity(trx, row);
  }

  private async getOrCreateIn(trx: Transaction<Tables>, name: string): Promise<EntityRow> {
    const v = new Violations();
    const values = this.spec.apply(v, { name }, undefined, this.spec.one);
    v.throwIfAny();
    return insertEntity(trx, this.spec.kind, newId(), values, { orExisting: true });
  }

  /** The entity, its row locked on PostgreSQL until the transaction ends. */
  private async lock(trx: Transaction<Tables>, id: string): Promise<EntityRow> {
    const row = await trx
      .selectFrom('catalog_entities')
      .selectAll()
      .where('kind', '=', this.spec.kind)
      .where('id', '=', id)
      .$if(this.storage.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!row) throw notFound(this.label, id);
    return row;
  }

  /** Saves again, changed by `change`, every product that refers to the entity (in id order: locks). */
  private async changeProducts(
    trx: Transaction<Tables>,
    id: string,
    change: (record: ProductRecord) => ProductRecord,
  ): Promise<void> {
    const links = await trx
      .selectFrom('product_entity_links')
      .select('product_id')
      .distinct()
      .where('kind', 'in', linkKindsOf(this.spec.kind))
      .where('entity_id', '=', id)
      .orderBy('product_id')
      .execute();
    for (const { product_id } of links) {
      const record = await lockRecord(trx, this.storage.dialect, product_id);
      if (!record) continue;
      const next = change(structuredClone(record));
      next.lastUpdated = new Date().toISOString();
      await saveProduct(this.storage, trx, next, record);
    }
  }

  private wantsCount(fields: EntityFieldsInput): boolean {
    const asked = fields === undefined ? [] : Array.isArray(fields) ? fields : [fields];
    return asked.includes(this.spec.countRequest);
  }

  private async answer(
    db: CatalogStorage['db'] | Transaction<Tables>,
    row: EntityRow,
    fields: EntityFieldsInput,
  ): Promise<Record<string, unknown>> {
    return { [this.spec.one]: await this.render(db, row, fields) };
  }

  private async render(
    db: CatalogStorage['db'] | Transaction<Tables>,
    row: EntityRow,
    fields: EntityFieldsInput,
  ): Promise<Record<string, unknown>> {
    const count = this.wantsCount(fields)
      ? ((await productCounts(db, this.spec.kind, [row.id])).get(row.id) ?? 0)
      : undefined;
    return renderEntity(row, count);
  }
}

/** The links that name an entity of `kind`: a ribbon's are the main ribbon's and those beside it. */
const linkKindsOf = (kind: CatalogEntityKind): ProductLinkKind[] =>
  kind === 'ribbon' ? ['ribbon', 'additionalRibbon'] : [kind];

/** How many products refer to each entity. */
async function productCounts(
  db: CatalogStorage['db'] | Transaction<Tables>,
  kind: CatalogEntityKind,
  ids: string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('product_entity_links')
    .select(['entity_id', sql<number>`count(distinct product_id)`.as('count')])
    .where('kind', 'in', linkKindsOf(kind))
    .where('entity_id', 'in', ids)
    .groupBy('entity_id')
    .execute();
  return new Map(rows.map((row) => [row.entity_id, Number(row.count)]));
}
