import type { FieldViolation } from '@cartwheel/sdk';
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
  type Transaction,
} from 'kysely';
import type { DialectName } from '../db/dialect.ts';
import type { Tables } from '../db/tables.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { prefixEnd } from '../shared/prefix-range.ts';
import type { Principal } from '../shared/principal.ts';
import { buyerEmail } from './model.ts';
import type { OrderRow } from './tables.ts';

/**
 * The order search's language: the hosted platform's search fields (its `OrderSearchSpec`), each on
 * a column or a side table of its own with an index, so every documented filter stays an index walk
 * at a million orders (migration `0026_orders_search`); the back office's free search (`textSearch`,
 * migration `0043_orders_text_search`); the cursors that page through the answer.
 */

/** A search page: 100 unless the caller asks for fewer (cursor paging). */
export const MAX_ORDERS_PAGE = 100;

/** Searchable fields held on the order's row: the wire's name → the column. */
const FILTER_COLUMNS = {
  id: 'id',
  status: 'status',
  paymentStatus: 'payment_status',
  fulfillmentStatus: 'fulfillment_status',
  number: 'number',
  createdDate: 'created_at',
  updatedDate: 'updated_at',
  purchasedDate: 'created_at',
  checkoutId: 'checkout_id',
  'buyerInfo.memberId': 'member_id',
  'buyerInfo.visitorId': 'visitor_id',
  'buyerInfo.email': 'buyer_email',
  'buyerInfo.contactId': 'contact_id',
  'billingInfo.contactDetails.firstName': 'billing_first_name',
  'billingInfo.contactDetails.lastName': 'billing_last_name',
  'priceSummary.total.amount': 'total_amount',
  archived: 'archived',
  seenByAHuman: 'seen_by_a_human',
  'channelInfo.type': 'channel_type',
} as const satisfies Record<string, keyof OrderRow>;
type FilterColumn = (typeof FILTER_COLUMNS)[keyof typeof FILTER_COLUMNS];

/** Searchable lists held in side tables, one row a value: filtered with `$hasSome` / `$hasAll`. */
const FILTER_SETS = {
  'tags.tags.tagIds': { table: 'order_tags', column: 'tag_id', kind: 'public' },
  'tags.privateTags.tagIds': { table: 'order_tags', column: 'tag_id', kind: 'private' },
  'lineItems.catalogReference.catalogItemId': { table: 'order_line_items', column: 'product_id' },
  'lineItems.productName.original': { table: 'order_line_items', column: 'product_name' },
} as const;
type FilterSet = (typeof FILTER_SETS)[keyof typeof FILTER_SETS];

/** Sortable fields: never null, so a cursor's key always compares. */
const SORT_COLUMNS = {
  createdDate: 'created_at',
  purchasedDate: 'created_at',
  updatedDate: 'updated_at',
  number: 'number',
  'priceSummary.total.amount': 'total_amount',
  status: 'status',
  paymentStatus: 'payment_status',
  fulfillmentStatus: 'fulfillment_status',
} as const;
export type SortColumn = (typeof SORT_COLUMNS)[keyof typeof SORT_COLUMNS];

const BOOLEAN_COLUMNS = new Set<FilterColumn>(['archived', 'seen_by_a_human']);
const NUMBER_COLUMNS = new Set<FilterColumn>(['number', 'total_amount']);
const DATE_COLUMNS = new Set<FilterColumn>(['created_at', 'updated_at']);
/**
 * Columns in byte order on both databases (`collate "C"` on PostgreSQL since 0043), each leading an
 * index: a prefix is a range of that index. Other columns compare a prefix row by row.
 */
const PREFIX_RANGE_COLUMNS = new Set<FilterColumn>([
  'buyer_email',
  'billing_first_name',
  'billing_last_name',
]);

export interface OrderSearch {
  filter?: Record<string, unknown> | undefined;
  /** Cartwheel's free search: what a merchant types in "Order number, buyer email or name". */
  search?: { expression?: string | null | undefined } | null | undefined;
  sort?: Array<{ fieldName?: string | undefined; order?: string | undefined }> | undefined;
  cursorPaging?: { limit?: number | undefined; cursor?: string | null | undefined } | undefined;
}

export interface Cursor {
  filter: Record<string, unknown>;
  /** The free search's expression, when the search had one. */
  text?: string;
  sort: { column: SortColumn; descending: boolean };
  limit: number;
  /** The sort key and id of the row the page starts after (`next`) or ends before (`prev`). */
  key: [string | number, string];
  direction: 'next' | 'prev';
}

/** The columns a search reads of an order, derived from its wire document whenever that is written. */
export type SearchColumns = Pick<
  OrderRow,
  | 'buyer_email'
  | 'contact_id'
  | 'billing_first_name'
  | 'billing_last_name'
  | 'total_amount'
  | 'archived'
  | 'seen_by_a_human'
  | 'channel_type'
  | 'search_text'
>;

interface SearchedDocument {
  buyerInfo?: { email?: unknown; contactId?: unknown };
  billingInfo?: { contactDetails?: { firstName?: unknown; lastName?: unknown } };
  priceSummary?: { total?: { amount?: unknown } };
  archived?: unknown;
  seenByAHuman?: unknown;
  channelInfo?: { type?: unknown };
  tags?: { tags?: { tagIds?: unknown }; privateTags?: { tagIds?: unknown } };
  lineItems?: Array<{ catalogReference?: { catalogItemId?: unknown }; productName?: { original?: unknown } }>;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export function searchColumns(order: object): SearchColumns {
  const doc = order as SearchedDocument;
  const email = text(doc.buyerInfo?.email);
  const total = Number(doc.priceSummary?.total?.amount);
  const firstName = text(doc.billingInfo?.contactDetails?.firstName);
  const lastName = text(doc.billingInfo?.contactDetails?.lastName);
  return {
    buyer_email: email ? buyerEmail(email) : null,
    contact_id: text(doc.buyerInfo?.contactId),
    billing_first_name: firstName,
    billing_last_name: lastName,
    total_amount: Number.isFinite(total) ? total : 0,
    archived: doc.archived === true ? 1 : 0,
    seen_by_a_human: doc.seenByAHuman === true ? 1 : 0,
    channel_type: text(doc.channelInfo?.type),
    search_text: orderSearchText(email, firstName, lastName),
  };
}

/** Whitespace as the free search compares it: runs of it as one space, none at the ends. */
const collapsed = (value: string): string => value.trim().replace(/\s+/g, ' ');

/**
 * What the free search reads of an order: the buyer's email, a line break, the billing first and last
 * name, all in lower case. A typed search never holds a line break, so no match straddles the email
 * and the name, while "ada lovelace" finds the first name and the last one together.
 */
export function orderSearchText(
  email: string | null,
  firstName: string | null,
  lastName: string | null,
): string | null {
  const name = collapsed([firstName ?? '', lastName ?? ''].join(' '));
  const address = email ? buyerEmail(email) : '';
  if (address === '' && name === '') return null;
  return `${address}\n${name}`.toLowerCase();
}

/** Characters in a trigram: a shorter search cannot be found through a trigram index. */
export const TRIGRAM_LENGTH = 3;

/**
 * The back office's free search, "Order number, buyer email or name" (`search.search.expression`):
 * - a number, with or without its `#`: that order;
 * - 3 characters or more: orders whose email or billing name holds them anywhere, case-insensitively
 *   (`ann@exa`, `example.com`, `velac`, `ada lovelace`), through a trigram index of `search_text`:
 *   SQLite's FTS5 table `order_search` (trigram tokenizer, one row an order under its number, kept by
 *   triggers on `orders`), PostgreSQL's pg_trgm GIN index on the column itself;
 * - 1 or 2 characters, which no trigram index can look up: orders whose email, first name or last
 *   name starts with them, case-insensitively, each a range of that column's index.
 * Undefined for a blank search. `way` `walk` (SQLite, a needle most orders hold: `textSearchWay`) asks
 * the same of each order as the page's sort walks them, without the index.
 */
export function textSearch(
  expression: string | null | undefined,
  dialect: DialectName,
  way: TextSearchWay = 'index',
): Condition | undefined {
  const typed = collapsed(expression ?? '');
  if (typed === '') return undefined;
  const number = ORDER_NUMBER.exec(typed);
  if (number) {
    const value = Number(number[1]);
    // more digits than any order number holds: no order has it
    return Number.isSafeInteger(value) ? (eb) => eb('number', '=', value) : (eb) => eb.lit(false);
  }
  const needle = typed.toLowerCase();
  if (Array.from(needle).length < TRIGRAM_LENGTH) return startOfEmailOrName(typed, way);
  if (dialect === 'sqlite' && way === 'index') {
    return () =>
      sql<SqlBool>`orders.number in (select rowid from order_search where order_search match ${phrase(needle)})`;
  }
  // both sides in lower case: SQLite's LIKE, which folds ASCII letters only, compares them exactly
  const pattern = `%${needle.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return () => sql<SqlBool>`orders.search_text like ${pattern} escape '\\'`;
}

const ORDER_NUMBER = /^#?(\d+)$/;

/** A trigram phrase: it matches exactly the texts holding the needle, one trigram after another. */
const phrase = (needle: string) => `"${needle.replaceAll('"', '""')}"`;

/** How a free search finds its orders: through its index, or checking each order the sort walks. */
export type TextSearchWay = 'index' | 'walk';

/** Matches from which walking newest first finds a page sooner than looking each match up. */
export const COMMON_MATCHES = 5_000;

/**
 * SQLite's way for a free search. Its index (the FTS table, the name ranges) hands over every order
 * the needle matches before the page is sorted: at a million orders a needle most hold (`example.com`,
 * `ho`) costs seconds that way, while walking newest first fills the page within a few rows.
 * PostgreSQL's planner makes that choice itself from the column's statistics; here, counting up to
 * `COMMON_MATCHES` matches does.
 */
export async function textSearchWay(
  db: Kysely<Tables>,
  expression: string | null | undefined,
  dialect: DialectName,
): Promise<TextSearchWay> {
  const typed = collapsed(expression ?? '');
  if (dialect !== 'sqlite' || typed === '' || ORDER_NUMBER.test(typed)) return 'index';
  const needle = typed.toLowerCase();
  const matches =
    Array.from(needle).length < TRIGRAM_LENGTH
      ? db
          .selectFrom('orders')
          .select(sql`1`.as('one'))
          .where(startOfEmailOrName(typed, 'index'))
          .limit(COMMON_MATCHES)
      : sql`select 1 from order_search where order_search match ${phrase(needle)} limit ${COMMON_MATCHES}`;
  const { rows } = await sql<{ found: number }>`select count(*) as found from (${matches})`.execute(db);
  return Number(rows[0]?.found ?? 0) >= COMMON_MATCHES ? 'walk' : 'index';
}

/** 1 or 2 characters: the email's start (kept in lower case), or a name's in any letter case. */
function startOfEmailOrName(typed: string, way: TextSearchWay): Condition {
  // every upper and lower case spelling: at most 4 of 2 characters, each a range of the name's index
  const spellings = Array.from(typed).reduce<string[]>(
    (heads, character) => {
      const forms = [...new Set([character.toLowerCase(), character.toUpperCase()])];
      return heads.flatMap((head) => forms.map((form) => head + form));
    },
    [''],
  );
  const starts = way === 'index' ? prefixRange : startsWithByCharacters;
  const ranges = [
    starts('buyer_email', typed.toLowerCase()),
    ...spellings.flatMap((spelling) => [
      starts('billing_first_name', spelling),
      starts('billing_last_name', spelling),
    ]),
  ];
  return (eb) => eb.or(ranges.map((range) => range(eb)));
}

/** `column` starts with `prefix`, as a range of the column's index (a column in byte order). */
function prefixRange(column: FilterColumn, prefix: string): Condition {
  const end = prefixEnd(prefix);
  if (end !== undefined) return (eb) => eb.and([eb(column, '>=', prefix), eb(column, '<', end)]);
  return (eb) => eb.and([eb(column, '>=', prefix), startsWithByCharacters(column, prefix)(eb)]);
}

/** `column` starts with `prefix`, compared row by row. */
function startsWithByCharacters(column: FilterColumn, prefix: string): Condition {
  // both databases count characters (code points), not JavaScript's UTF-16 units
  const characters = Array.from(prefix).length;
  return (eb) => eb(eb.fn('substr', [eb.ref(column), eb.lit(1), eb.lit(characters)]), '=', prefix);
}

/** An order's tags as the wire holds them: `{tags: {tagIds}, privateTags: {tagIds}}`. */
export function tagsOf(order: object): { public: string[]; private: string[] } {
  const doc = order as SearchedDocument;
  const ids = (value: unknown) =>
    Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  return { public: ids(doc.tags?.tags?.tagIds), private: ids(doc.tags?.privateTags?.tagIds) };
}

/** Writes the side tables a search reads (line items' products, tags) for a new order, in `trx`. */
export async function indexOrderLists(
  trx: Transaction<Tables>,
  orderRow: { id: string; created_at: string },
  order: object,
): Promise<void> {
  const orderId = orderRow.id;
  const doc = order as SearchedDocument;
  const lines = new Map<string, { order_id: string; product_id: string; product_name: string }>();
  for (const line of doc.lineItems ?? []) {
    const row = {
      order_id: orderId,
      product_id: text(line.catalogReference?.catalogItemId) ?? '',
      product_name: text(line.productName?.original) ?? '',
    };
    lines.set(`${row.product_id}\u0000${row.product_name}`, row);
  }
  if (lines.size > 0)
    await trx
      .insertInto('order_line_items')
      .values([...lines.values()])
      .execute();
  await writeTags(trx, orderRow, tagsOf(doc));
}

/**
 * Makes the order's tag rows those of `tags`, in `trx` (the order's row is locked by the caller),
 * each with the order's created date, so a search by tag walks them newest first.
 */
export async function writeTags(
  trx: Transaction<Tables>,
  order: { id: string; created_at: string },
  tags: { public: string[]; private: string[] },
): Promise<void> {
  const orderId = order.id;
  await trx.deleteFrom('order_tags').where('order_id', '=', orderId).execute();
  const rows = [
    ...new Set(tags.public.map((tag) => `public\u0000${tag}`)),
    ...new Set(tags.private.map((tag) => `private\u0000${tag}`)),
  ].map((key) => {
    const [kind, tag_id] = key.split('\u0000') as [string, string];
    return { order_id: orderId, kind, tag_id, order_created_at: order.created_at };
  });
  if (rows.length > 0) await trx.insertInto('order_tags').values(rows).execute();
}

/**
 * The one tag a filter requires of every order it finds (a tag field at its top or in its top `$and`,
 * naming one tag, or `$hasAll`'s first), and the filter without it: a search sorted by created date
 * walks that tag's rows newest first (index `order_tags_newest`) and checks the rest on each order,
 * instead of sorting every order that holds the tag.
 */
export function leadingTag(
  filter: unknown,
): { kind: string; tagId: string; rest: Record<string, unknown> } | undefined {
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return undefined;
  const record = filter as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    const set = ownValue(FILTER_SETS, key);
    if (set && 'kind' in set) {
      const one = (list: unknown) =>
        Array.isArray(list) && list.length === 1 && typeof list[0] === 'string' ? list[0] : undefined;
      const rest = { ...record };
      delete rest[key];
      if (typeof value === 'string') return { kind: set.kind, tagId: value, rest };
      if (Array.isArray(value)) {
        const tagId = one(value);
        if (tagId !== undefined) return { kind: set.kind, tagId, rest };
        continue;
      }
      if (!value || typeof value !== 'object') continue;
      const operators = value as Record<string, unknown>;
      const names = Object.keys(operators);
      const all = operators.$hasAll;
      if (names.length === 1 && Array.isArray(all) && typeof all[0] === 'string') {
        // the first tag leads; the others are still required of each order
        if (all.length > 1) rest[key] = { $hasAll: all.slice(1) };
        return { kind: set.kind, tagId: all[0], rest };
      }
      const tagId =
        names.length === 1
          ? (one(operators.$hasSome) ??
            one(operators.$in) ??
            (typeof operators.$eq === 'string' ? operators.$eq : undefined))
          : undefined;
      if (tagId !== undefined) return { kind: set.kind, tagId, rest };
    }
  }
  const parts = record.$and;
  if (Array.isArray(parts))
    for (const [index, part] of parts.entries()) {
      const found = leadingTag(part);
      if (found) {
        const rest = { ...record, $and: parts.map((other, at) => (at === index ? found.rest : other)) };
        return { kind: found.kind, tagId: found.tagId, rest };
      }
    }
  return undefined;
}

/**
 * `table[key]` when `key` is one of the table's own names: a caller's field or operator named
 * `constructor` or `toString` must not find what every object inherits.
 */
function ownValue<Table extends object>(table: Table, key: string): Table[keyof Table] | undefined {
  return Object.hasOwn(table, key) ? table[key as keyof Table] : undefined;
}

export function sortOf(sort: OrderSearch['sort']): Cursor['sort'] {
  const first = sort?.[0];
  if (!first?.fieldName) return { column: 'created_at', descending: true };
  const column = ownValue(SORT_COLUMNS, first.fieldName);
  if (!column) {
    throw invalidArgument([
      violation(
        'search.sort[0].fieldName',
        `orders sort by ${Object.keys(SORT_COLUMNS).join(', ')}`,
        'INVALID_ENUM_VALUE',
      ),
    ]);
  }
  return { column, descending: first.order !== 'ASC' };
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    const columns = Object.values(SORT_COLUMNS) as string[];
    if (
      cursor &&
      typeof cursor.filter === 'object' &&
      cursor.filter !== null &&
      !Array.isArray(cursor.filter) &&
      columns.includes(cursor.sort?.column) &&
      Number.isInteger(cursor.limit) &&
      cursor.limit >= 0 &&
      cursor.limit <= MAX_ORDERS_PAGE &&
      typeof cursor.sort.descending === 'boolean' &&
      Array.isArray(cursor.key) &&
      cursor.key.length === 2 &&
      (typeof cursor.key[0] === 'string' || Number.isFinite(cursor.key[0])) &&
      typeof cursor.key[1] === 'string' &&
      (cursor.text === undefined || typeof cursor.text === 'string') &&
      (cursor.direction === 'next' || cursor.direction === 'prev')
    ) {
      return cursor;
    }
  } catch {
    // answered below
  }
  throw invalidArgument([
    violation('search.cursorPaging.cursor', 'is not a cursor this search gave', 'FORMAT'),
  ]);
}

/** What chooses a page of orders: which rows, in which order, after which key. */
export interface PageKeys {
  /** A tag every order found holds: its rows lead, newest first (see `leadingTag`). */
  tag?: { kind: string; tagId: string } | undefined;
  condition: Condition;
  /** The direction the page is read in (a page back reads the sort the other way). */
  sort: { column: SortColumn; descending: boolean };
  /** Statuses listed only when a filter names them. */
  hiddenStatuses: string[];
  /** Whose orders: an admin's are all, a member's their account's, a visitor's their guest orders. */
  owner: Exclude<Principal, { kind: 'anonymous' }>;
  /** The sort key and id of the row the page starts after. */
  after?: [string | number, string] | undefined;
  limit: number;
}

/**
 * The ids (and sort keys) of a page of orders: an index walk that starts at the cursor's key and
 * stops after `limit` rows, however deep the page is; the documents are read by id afterwards.
 */
export function pageKeysQuery(db: Kysely<Tables>, page: PageKeys) {
  const { tag, sort, owner } = page;
  const sortKey = tag ? 'order_tags.order_created_at' : sort.column;
  const idKey = tag ? 'order_tags.order_id' : 'orders.id';
  const order = sort.descending ? 'desc' : 'asc';
  // typed with both tables in scope: the tag rows' columns are named only when they lead
  const from = (tag
    ? db
        .selectFrom('order_tags')
        .innerJoin('orders', 'orders.id', 'order_tags.order_id')
        .where('order_tags.kind', '=', tag.kind)
        .where('order_tags.tag_id', '=', tag.tagId)
    : db.selectFrom('orders')) as unknown as SelectQueryBuilder<Tables, 'orders' | 'order_tags', object>;
  let query = from
    .select(['orders.id', `orders.${sort.column}`])
    .where('number', 'is not', null)
    .where('status', '<>', 'INITIALIZED')
    .where((eb) => page.condition(eb as never))
    .orderBy(sortKey, order)
    .orderBy(idKey, order)
    .limit(page.limit);
  if (page.hiddenStatuses.length > 0) query = query.where('status', 'not in', page.hiddenStatuses);
  if (owner.kind === 'member') {
    // the account's orders only: a guest order in this browser under another email stays readable
    // by id (ownsOrder, for the thank-you page) but is not listed as the account's, since whoever
    // signs in next on a shared browser is not necessarily who bought it
    query = query.where('member_id', '=', owner.memberId);
  } else if (owner.kind === 'visitor') {
    query = query.where('visitor_id', '=', owner.visitorId).where('member_id', 'is', null);
  }
  if (page.after) {
    const [value, id] = page.after;
    const beyond = sort.descending ? '<' : '>';
    // "after (value, id)", with the sort key's bound on its own as well: neither database starts an
    // index walk from the OR alone, so without it page k walks k pages of index first (seconds a page
    // deep in a million orders, and an export, which reads every page, went quadratic)
    query = query
      .where(sortKey, sort.descending ? '<=' : '>=', value)
      .where((eb) => eb.or([eb(sortKey, beyond, value), eb(idKey, beyond, id)]));
  }
  return query;
}

/** The statuses a filter names anywhere: PENDING and REJECTED orders are listed only when named. */
export function statusesNamed(filter: unknown): Set<string> {
  const named = new Set<string>();
  const walk = (value: unknown, inStatus: boolean) => {
    if (typeof value === 'string' && inStatus) named.add(value);
    else if (Array.isArray(value)) for (const item of value) walk(item, inStatus);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(child, inStatus || key === 'status');
    }
  };
  walk(filter, false);
  return named;
}

export type Condition = (eb: ExpressionBuilder<Tables, 'orders'>) => Expression<SqlBool>;
const COMPARISONS = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
const FIELDS = () => [...Object.keys(FILTER_COLUMNS), ...Object.keys(FILTER_SETS)].join(', ');

/** The wire's filter (`{"status": {"$in": [...]}, "$and": [...]}`) as a SQL condition on indexed columns. */
export function compileFilter(filter: unknown, field: string): Condition {
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) {
    throw invalidArgument([violation(field, 'must be an object', 'FORMAT')]);
  }
  const parts: Condition[] = [];
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    const at = `${field}.${key}`;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0)
        throw invalidArgument([violation(at, 'must be a list of filters', 'FORMAT')]);
      const inner = value.map((item, index) => compileFilter(item, `${at}[${index}]`));
      parts.push((eb) => (key === '$and' ? eb.and(inner.map((c) => c(eb))) : eb.or(inner.map((c) => c(eb)))));
    } else if (key === '$not') {
      const inner = compileFilter(value, at);
      parts.push((eb) => eb.not(inner(eb)));
    } else {
      const column = ownValue(FILTER_COLUMNS, key);
      const set = column ? undefined : ownValue(FILTER_SETS, key);
      if (column) parts.push(fieldCondition(column, value, at));
      else if (set) parts.push(setCondition(set, value, at));
      else {
        throw invalidArgument([violation(at, `orders filter on ${FIELDS()}`, 'FIELD_NOT_ALLOWED')]);
      }
    }
  }
  return (eb) => (parts.length === 0 ? eb.lit(true) : eb.and(parts.map((part) => part(eb))));
}

function fieldCondition(column: FilterColumn, value: unknown, field: string): Condition {
  const operand = (raw: unknown, at: string): string | number => {
    if (BOOLEAN_COLUMNS.has(column)) {
      if (typeof raw !== 'boolean') throw invalidArgument([violation(at, 'must be true or false', 'FORMAT')]);
      return raw ? 1 : 0;
    }
    if (NUMBER_COLUMNS.has(column)) {
      const number =
        typeof raw === 'number'
          ? raw
          : typeof raw === 'string' && raw.trim() !== ''
            ? Number(raw)
            : Number.NaN;
      const valid = column === 'number' ? Number.isSafeInteger(number) : Number.isFinite(number);
      if (!valid)
        throw invalidArgument([
          violation(
            at,
            column === 'number' ? 'must be an order number' : 'must be a decimal amount',
            'FORMAT',
          ),
        ]);
      return number;
    }
    if (typeof raw !== 'string') throw invalidArgument([violation(at, 'must be a string', 'FORMAT')]);
    if (DATE_COLUMNS.has(column)) {
      const date = new Date(raw);
      if (Number.isNaN(date.getTime()))
        throw invalidArgument([violation(at, 'must be an ISO-8601 date', 'FORMAT')]);
      return date.toISOString();
    }
    // the column holds the email as sign-ins look it up
    return column === 'buyer_email' ? buyerEmail(raw) : raw;
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (value === null) return (eb) => eb(column, 'is', null);
    const equal = operand(value, field);
    return (eb) => eb(column, '=', equal);
  }
  const parts: Condition[] = [];
  const problems: FieldViolation[] = [];
  for (const [operator, raw] of Object.entries(value as Record<string, unknown>)) {
    const at = `${field}.${operator}`;
    const op = ownValue(COMPARISONS, operator);
    if (op) {
      const compared = operand(raw, at);
      parts.push((eb) => eb(column, op, compared));
    } else if (operator === '$in' || operator === '$nin') {
      // its size was held to the filter budget already
      if (!Array.isArray(raw)) throw invalidArgument([violation(at, 'must be a list of values', 'FORMAT')]);
      const values = raw.map((item, index) => operand(item, `${at}[${index}]`));
      if (values.length === 0) parts.push((eb) => eb.lit(operator === '$nin'));
      else parts.push((eb) => eb(column, operator === '$in' ? 'in' : 'not in', values));
    } else if (operator === '$exists') {
      parts.push((eb) => eb(column, raw ? 'is not' : 'is', null));
    } else if (operator === '$startsWith' && !NUMBER_COLUMNS.has(column) && !BOOLEAN_COLUMNS.has(column)) {
      const prefix = operand(raw, at) as string;
      parts.push(
        PREFIX_RANGE_COLUMNS.has(column)
          ? prefixRange(column, prefix)
          : startsWithByCharacters(column, prefix),
      );
    } else {
      problems.push(
        violation(
          at,
          `is not an operator orders filter ${field.split('.').pop()} with`,
          'INVALID_ENUM_VALUE',
        ),
      );
    }
  }
  if (problems.length > 0) throw invalidArgument(problems);
  return (eb) => eb.and(parts.map((part) => part(eb)));
}

/** `$hasSome` / `$hasAll` (and `$in`, `$eq` as one of) over a side table's values of the order. */
function setCondition(set: FilterSet, value: unknown, field: string): Condition {
  const strings = (raw: unknown, at: string): string[] => {
    const list = Array.isArray(raw) ? raw : [raw];
    if (list.length === 0 || list.some((item) => typeof item !== 'string'))
      throw invalidArgument([violation(at, 'must be a list of strings', 'FORMAT')]);
    return list as string[];
  };
  const holding = (values: string[]): Condition => {
    return (eb) => {
      let inner = eb
        .selectFrom(set.table)
        .select(`${set.table}.order_id`)
        .where(`${set.table}.${set.column}` as any, 'in', values);
      if ('kind' in set) inner = inner.where('kind' as any, '=', set.kind);
      return eb('orders.id', 'in', inner as any);
    };
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return holding(strings(value, field));
  }
  const parts: Condition[] = [];
  for (const [operator, raw] of Object.entries(value as Record<string, unknown>)) {
    const at = `${field}.${operator}`;
    if (operator === '$hasSome' || operator === '$in' || operator === '$eq')
      parts.push(holding(strings(raw, at)));
    else if (operator === '$hasAll') for (const one of strings(raw, at)) parts.push(holding([one]));
    else
      throw invalidArgument([
        violation(
          at,
          `is not an operator orders filter ${field.split('.').pop()} with ($hasSome, $hasAll)`,
          'INVALID_ENUM_VALUE',
        ),
      ]);
  }
  return (eb) => eb.and(parts.map((part) => part(eb)));
}
