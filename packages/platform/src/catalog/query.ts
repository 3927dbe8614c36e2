import type { Filter, Sorting } from '@cartwheel/sdk';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { type DomainError, invalidArgument, violation } from '../shared/errors.ts';
import { prefixEnd } from '../shared/prefix-range.ts';
import { ALL_PRODUCTS_COLLECTION_ID } from './collections.ts';

export {
  checkFilterBudget,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_FILTER_LIST,
  MAX_FILTER_TEXT,
} from '../shared/filter-budget.ts';

/**
 * The wire's query language (filter operators, sorting, offset paging) translated to SQL over the
 * catalog's indexed columns. Anything it does not know is a field violation, never ignored.
 */

// ---- the query budget: what one catalog query may ask (schemas.ts declares it; the filter's own
// budget is counted by shared/filter-budget.ts, which order searches use too) ----

/** Items in `sort`. */
export const MAX_SORT_ITEMS = 5;
/** `paging.limit` (and `cursorPaging.limit`). */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 50;
/** `paging.offset`, and the offset a cursor stands for: deeper pages are reached by filtering. */
export const MAX_OFFSET = 100_000;

type FieldKind = 'string' | 'number' | 'boolean' | 'date' | 'enum' | 'collections' | 'links';

export interface FieldSpec {
  /** Qualified column (`p.price`); for `collections` and `links`, the column holding the product id. */
  column: string;
  kind: FieldKind;
  /** Allowed values of an enum field. */
  values?: readonly string[];
  /** How the column stores an enum's values, when not as the wire writes them (v3 `PHYSICAL`: `physical`). */
  stored?: Readonly<Record<string, string>>;
  /** A lowercased copy of the column, byte-ordered and indexed: prefix search uses a range on it. */
  lowerColumn?: string;
  /** Empty text means absent (`$exists: false`). */
  emptyIsAbsent?: boolean;
  /** A whole number column (`bigint`): a value must be a whole number it can hold. */
  integer?: boolean;
  /** A substring index (`CompileOptions.substringIndex`) may answer `$contains` on this field. */
  substringIndexed?: boolean;
  /** For `links`: the kind of v3 entity (`product_entity_links.kind`) whose ids the field names. */
  linkKind?: string;
}

export interface CompileOptions {
  /**
   * A `$contains` search for a lowercased needle answered by a substring index instead of a LIKE over
   * every row: a condition that holds for exactly the rows whose lowercased text contains the needle,
   * or undefined when the index cannot answer it (a needle too short for it).
   */
  substringIndex?: (needle: string) => RawBuilder<SqlBool> | undefined;
  /**
   * Collections the reader may not see (for visitors, the hidden ones): a filter naming one reads it
   * as a collection no product is in, as if it did not exist.
   */
  hiddenCollections?: ReadonlySet<string>;
}

export type QueryFields = Record<string, FieldSpec>;

const TRUE = sql<SqlBool>`1 = 1`;
const FALSE = sql<SqlBool>`1 = 0`;
const COMPARISONS = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

export function compileFilter(
  filter: unknown,
  fields: QueryFields,
  options: CompileOptions = {},
  path = 'query.filter',
): RawBuilder<SqlBool> {
  if (filter === undefined || filter === null) return TRUE;
  if (typeof filter !== 'object' || Array.isArray(filter)) throw bad(path, 'must be an object');
  const parts: RawBuilder<SqlBool>[] = [];
  for (const [key, condition] of Object.entries(filter as Filter)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(condition)) throw bad(`${path}.${key}`, 'must be an array of filters');
      const inner = condition.map((item, index) =>
        compileFilter(item, fields, options, `${path}.${key}[${index}]`),
      );
      if (inner.length === 0) parts.push(key === '$and' ? TRUE : FALSE);
      else parts.push(sql<SqlBool>`(${sql.join(inner, key === '$and' ? sql` and ` : sql` or `)})`);
    } else if (key === '$not') {
      parts.push(sql<SqlBool>`not (${compileFilter(condition, fields, options, `${path}.$not`)})`);
    } else {
      const spec = Object.hasOwn(fields, key) ? fields[key] : undefined; // not `toString`
      if (!spec) throw bad(`${path}.${key}`, `is not a field this query can filter on`, 'FIELD_NOT_ALLOWED');
      parts.push(compileCondition(spec, condition, options, `${path}.${key}`));
    }
  }
  if (parts.length === 0) return TRUE;
  return parts.length === 1
    ? (parts[0] as RawBuilder<SqlBool>)
    : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

function compileCondition(
  spec: FieldSpec,
  condition: unknown,
  options: CompileOptions,
  path: string,
): RawBuilder<SqlBool> {
  if (!isOperators(condition)) return compileOperator(spec, '$eq', condition, options, path);
  const parts = Object.entries(condition).map(([operator, value]) =>
    compileOperator(spec, operator, value, options, `${path}.${operator}`),
  );
  return parts.length === 1
    ? (parts[0] as RawBuilder<SqlBool>)
    : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** `{$gt: 1, $lt: 5}`, as opposed to a value compared for equality. */
function isOperators(condition: unknown): condition is Record<string, unknown> {
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) return false;
  let any = false;
  for (const key in condition) {
    if (!key.startsWith('$')) return false;
    any = true;
  }
  return any;
}

function compileOperator(
  spec: FieldSpec,
  operator: string,
  value: unknown,
  options: CompileOptions,
  path: string,
): RawBuilder<SqlBool> {
  if (spec.kind === 'collections' || spec.kind === 'links')
    return compileMembership(spec, operator, value, options, path);
  const column = sql.ref(spec.column);
  switch (operator) {
    case '$eq':
    case '$ne':
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (value === null && (operator === '$eq' || operator === '$ne')) {
        return operator === '$eq' ? FALSE : TRUE; // catalog columns always hold a value
      }
      const comparison = sql.raw(COMPARISONS[operator]);
      return sql<SqlBool>`${column} ${comparison} ${scalar(spec, value, path)}`;
    }
    case '$in':
    case '$nin':
    case '$hasSome': {
      const values = list(value, path).map((item, index) => scalar(spec, item, `${path}[${index}]`));
      if (values.length === 0) return operator === '$nin' ? TRUE : FALSE;
      const inList = sql<SqlBool>`${column} in (${sql.join(values)})`;
      return operator === '$nin' ? sql<SqlBool>`not (${inList})` : inList;
    }
    case '$hasAll': {
      const values = [
        ...new Set(list(value, path).map((item, index) => scalar(spec, item, `${path}[${index}]`))),
      ];
      if (values.length === 0) return TRUE;
      return values.length === 1 ? sql<SqlBool>`${column} = ${values[0]}` : FALSE; // one value cannot equal two
    }
    case '$startsWith':
    case '$contains': {
      if (spec.kind !== 'string') throw bad(path, `applies to text fields only`, 'FIELD_NOT_ALLOWED');
      const needle = text(value, path).toLowerCase();
      if (needle === '') return TRUE;
      const pattern = `${operator === '$contains' ? '%' : ''}${escapeLike(needle)}%`;
      const lower = spec.lowerColumn ? sql.ref(spec.lowerColumn) : sql`lower(${column})`;
      const like = sql<SqlBool>`${lower} like ${pattern} escape '\\'`;
      if (operator === '$startsWith' && spec.lowerColumn) {
        // A byte-ordered range the index answers; the LIKE keeps it exact.
        const end = prefixEnd(needle);
        return end === undefined
          ? sql<SqlBool>`(${lower} >= ${needle} and ${like})`
          : sql<SqlBool>`(${lower} >= ${needle} and ${lower} < ${end} and ${like})`;
      }
      const indexed = spec.substringIndexed ? options.substringIndex?.(needle) : undefined;
      return indexed ?? like;
    }
    case '$exists': {
      if (typeof value !== 'boolean') throw bad(path, 'must be true or false', 'FORMAT');
      if (spec.emptyIsAbsent) return value ? sql<SqlBool>`${column} <> ''` : sql<SqlBool>`${column} = ''`;
      return value ? TRUE : FALSE;
    }
    default:
      throw bad(path, `is not an operator this query knows`, 'FIELD_NOT_ALLOWED');
  }
}

function compileMembership(
  spec: FieldSpec,
  operator: string,
  value: unknown,
  options: CompileOptions,
  path: string,
): RawBuilder<SqlBool> {
  const links = spec.kind === 'links';
  const ids = (): string[] => {
    const items = operator === '$eq' || operator === '$ne' ? [value] : list(value, path);
    return items.map((item, index) => {
      if (typeof item !== 'string')
        throw bad(`${path}[${index}]`, `must be ${links ? 'an id' : 'a collection id'}`, 'FORMAT');
      return item;
    });
  };
  const hidden = links ? undefined : options.hiddenCollections;
  const isHidden = (id: string) => hidden?.has(id) === true;
  const owner = sql.ref(spec.column);
  // the products listed with any of `named`: a set the membership's key answers once, not a probe per row
  const listedWith = (named: string[]) =>
    links
      ? sql`select l.product_id from product_entity_links l where l.kind = ${spec.linkKind} and l.entity_id in (${sql.join(named)})`
      : sql`select pc.product_id from product_collections pc where pc.collection_id in (${sql.join(named)})`;
  const inAny = (named: string[]): RawBuilder<SqlBool> => {
    if (!links && named.includes(ALL_PRODUCTS_COLLECTION_ID)) return TRUE;
    // a collection the reader may not see holds nothing for them
    const collectionIds = named.filter((id) => !isHidden(id));
    if (collectionIds.length === 0) return FALSE;
    return sql<SqlBool>`${owner} in (${listedWith(collectionIds)})`;
  };
  switch (operator) {
    case '$eq':
    case '$in':
    case '$hasSome':
      return inAny(ids());
    case '$ne':
    case '$nin':
      return sql<SqlBool>`not (${inAny(ids())})`;
    case '$hasAll': {
      const all = [...new Set(ids())].filter((id) => links || id !== ALL_PRODUCTS_COLLECTION_ID);
      if (all.some(isHidden)) return FALSE;
      if (all.length === 0) return TRUE;
      if (all.length === 1) return inAny(all);
      // One pass over the named collections' memberships, not a subquery per collection: a product
      // is in all of them when it is listed once in each ((collection_id, product_id) is the key).
      return links
        ? sql<SqlBool>`${owner} in (select l.product_id from product_entity_links l where l.kind = ${spec.linkKind} and l.entity_id in (${sql.join(all)}) group by l.product_id having count(distinct l.entity_id) = ${all.length})`
        : sql<SqlBool>`${owner} in (select pc.product_id from product_collections pc where pc.collection_id in (${sql.join(all)}) group by pc.product_id having count(*) = ${all.length})`;
    }
    case '$exists':
      if (typeof value !== 'boolean') throw bad(path, 'must be true or false', 'FORMAT');
      if (links) {
        const any = sql<SqlBool>`${owner} in (select l.product_id from product_entity_links l where l.kind = ${spec.linkKind})`;
        return value ? any : sql<SqlBool>`not (${any})`;
      }
      return value ? TRUE : FALSE;
    default:
      throw bad(path, `is not an operator collection filters know`, 'FIELD_NOT_ALLOWED');
  }
}

function scalar(spec: FieldSpec, value: unknown, path: string): string | number {
  switch (spec.kind) {
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number))
        throw bad(path, 'must be a number', 'FORMAT');
      if (spec.integer && !Number.isSafeInteger(number)) {
        throw bad(path, `must be a whole number of at most ${Number.MAX_SAFE_INTEGER}`, 'FORMAT');
      }
      return number;
    }
    case 'boolean':
      if (value === true || value === 'true') return 1;
      if (value === false || value === 'false') return 0;
      throw bad(path, 'must be true or false', 'FORMAT');
    case 'date': {
      const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
      if (!date || Number.isNaN(date.getTime())) throw bad(path, 'must be an ISO-8601 date', 'FORMAT');
      return date.toISOString();
    }
    case 'enum':
      if (typeof value !== 'string' || !spec.values?.includes(value)) {
        throw bad(path, `must be one of ${spec.values?.join(', ')}`, 'INVALID_ENUM_VALUE');
      }
      return spec.stored?.[value] ?? value;
    default:
      return text(value, path);
  }
}

// Sizes are `checkFilterBudget`'s to hold: `productScope` may join the lists of several conditions.
function list(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw bad(path, 'must be an array', 'FORMAT');
  return value;
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string') throw bad(path, 'must be a string', 'FORMAT');
  return value;
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export interface SortSpec {
  [fieldName: string]: string;
}

export interface SortItem {
  /** Qualified column. */
  column: string;
  order: 'asc' | 'desc';
}

/** The wire's sorting as columns, the given fallback when it names none, the id last as a tie-break. */
export function parseSort(
  sort: unknown,
  columns: SortSpec,
  tieBreak: string,
  fallback: Sorting,
  path = 'query.sort',
): SortItem[] {
  const items = sort === undefined || sort === null ? [] : sort;
  if (!Array.isArray(items)) throw bad(path, 'must be an array of {fieldName, order}', 'FORMAT');
  if (items.length > MAX_SORT_ITEMS) throw bad(path, `must hold at most ${MAX_SORT_ITEMS} items`, 'MAX_SIZE');
  const chosen = items.length > 0 ? (items as Sorting[]) : [fallback];
  const parsed = chosen.map((item, index): SortItem => {
    const name = item?.fieldName;
    const column = typeof name === 'string' && Object.hasOwn(columns, name) ? columns[name] : undefined;
    if (!column)
      throw bad(
        `${path}[${index}].fieldName`,
        `cannot sort by ${String(item?.fieldName)}`,
        'FIELD_NOT_ALLOWED',
      );
    const order = item.order ?? 'ASC';
    if (order !== 'ASC' && order !== 'DESC') {
      throw bad(`${path}[${index}].order`, 'must be ASC or DESC', 'INVALID_ENUM_VALUE');
    }
    return { column, order: order === 'ASC' ? 'asc' : 'desc' };
  });
  if (!parsed.some((item) => item.column === tieBreak)) parsed.push({ column: tieBreak, order: 'asc' });
  return parsed;
}

/** `ORDER BY` for parsed sorting. */
export function orderBy(items: SortItem[]): RawBuilder<unknown> {
  return sql.join(items.map((item) => sql`${sql.ref(item.column)} ${sql.raw(item.order)}`));
}

/** `ORDER BY` for the wire's sorting, with the id as a stable tie-break. */
export function compileSort(
  sort: unknown,
  columns: SortSpec,
  tieBreak: string,
  fallback: Sorting,
  path = 'query.sort',
): RawBuilder<unknown> {
  return orderBy(parseSort(sort, columns, tieBreak, fallback, path));
}

export interface Page {
  limit: number;
  offset: number;
  /** The request used cursor paging: the answer carries cursors. */
  cursor: boolean;
}

/** Offset paging (`{limit, offset}`), or the cursor form whose cursor is an encoded offset. */
export function parsePaging(
  query: { paging?: unknown; cursorPaging?: unknown } | undefined,
  path = 'query',
): Page {
  const cursorPaging = query?.cursorPaging as { limit?: unknown; cursor?: unknown } | undefined;
  const paging = (query?.paging ?? cursorPaging ?? {}) as { limit?: unknown; offset?: unknown };
  const part = query?.paging === undefined && cursorPaging ? 'cursorPaging' : 'paging';
  const pagingPath = path ? `${path}.${part}` : part;
  const limit = paging.limit === undefined || paging.limit === null ? DEFAULT_LIMIT : Number(paging.limit);
  if (!Number.isInteger(limit) || limit < 0)
    throw bad(`${pagingPath}.limit`, 'must be a whole number', 'FORMAT');
  if (limit > MAX_LIMIT) throw bad(`${pagingPath}.limit`, `must be at most ${MAX_LIMIT}`, 'MAX');
  let offset = 0;
  if (query?.paging === undefined && cursorPaging) {
    if (typeof cursorPaging.cursor === 'string' && cursorPaging.cursor !== '') {
      offset = decodeCursor(cursorPaging.cursor, `${pagingPath}.cursor`);
    }
    return { limit, offset, cursor: true };
  }
  if (paging.offset !== undefined && paging.offset !== null) offset = Number(paging.offset);
  if (!Number.isInteger(offset) || offset < 0) {
    throw bad(`${pagingPath}.offset`, 'must be a whole number, zero or more', 'FORMAT');
  }
  if (offset > MAX_OFFSET) throw bad(`${pagingPath}.offset`, `must be at most ${MAX_OFFSET}`, 'MAX');
  return { limit, offset, cursor: false };
}

export function pagingMetadata(page: Page, count: number, total: number): Record<string, unknown> {
  if (!page.cursor) return { count, offset: page.offset, total, tooManyToCount: false };
  const next = page.offset + count < total ? encodeCursor(page.offset + count) : null;
  const prev = page.offset > 0 ? encodeCursor(Math.max(0, page.offset - page.limit)) : null;
  return {
    count,
    offset: page.offset,
    total,
    tooManyToCount: false,
    cursors: { next, prev },
    hasNext: next !== null,
  };
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decodeCursor(cursor: string, path: string): number {
  let offset: unknown;
  try {
    ({ offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset: unknown });
  } catch {}
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw bad(path, 'is not a cursor this query gave out', 'FORMAT');
  }
  if (offset > MAX_OFFSET) throw bad(path, `stands for an offset past ${MAX_OFFSET}`, 'MAX');
  return offset;
}

function bad(
  field: string,
  description: string,
  rule: Parameters<typeof violation>[2] = 'VALIDATION',
): DomainError {
  return invalidArgument([violation(field, description, rule)]);
}
