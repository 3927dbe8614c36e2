import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { invalidArgument, violation } from './errors.ts';

/**
 * The hosted wire's query language (WQL) over one table: a filter of fields, each an exact value or
 * `{$operator: value}`, a sort, and a cursor that carries the query on. Back-in-stock requests and
 * subscription contracts read theirs through it; a field or operator it does not know is a field
 * violation, never ignored.
 */

/** A wire field a query filters (and maybe sorts) on, and its column. */
export interface WqlField {
  column: string;
  sortable: boolean;
  kind?: 'boolean';
}

export interface WqlSort {
  fieldName: string;
  order?: 'ASC' | 'DESC' | undefined;
}

const COMPARISONS = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

const fieldOf = (fields: Record<string, WqlField>, name: string) =>
  Object.hasOwn(fields, name) ? fields[name] : undefined;

/**
 * The filter's conditions added to `select`: its fields ANDed, `$and`, `$or` (lists of filters) and
 * `$not` (a filter) as the hosted client combines them; anything it does not know is a field violation.
 */
export function applyWqlFilter<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  fields: Record<string, WqlField>,
  filter: Record<string, unknown>,
): SelectQueryBuilder<DB, TB, O> {
  if (Object.keys(filter).length === 0) return select;
  // checked (and refused) before any SQL is built
  const condition = conditionOf(fields, filter, 'query.filter', 0);
  return select.where(condition);
}

/** Filters nest (`$and` of `$or`s ...) at most this deep. */
const MAX_DEPTH = 5;

function conditionOf(
  fields: Record<string, WqlField>,
  filter: unknown,
  at: string,
  depth: number,
): Expression<SqlBool> {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter) || depth > MAX_DEPTH) {
    throw invalidArgument([violation(at, `must be a filter object, nested at most ${MAX_DEPTH} deep`)]);
  }
  const parts: Expression<SqlBool>[] = [];
  for (const [name, condition] of Object.entries(filter as Record<string, unknown>)) {
    if (name === '$and' || name === '$or') {
      if (!Array.isArray(condition) || condition.length === 0 || condition.length > 20) {
        throw invalidArgument([violation(`${at}.${name}`, 'must be a list of 1 to 20 filters')]);
      }
      const each = condition.map((one, index) =>
        conditionOf(fields, one, `${at}.${name}[${index}]`, depth + 1),
      );
      parts.push(name === '$and' ? and(each) : or(each));
    } else if (name === '$not') {
      parts.push(not(conditionOf(fields, condition, `${at}.$not`, depth + 1)));
    } else {
      parts.push(fieldCondition(fields, name, condition, at));
    }
  }
  return and(parts);
}

const and = (parts: Expression<SqlBool>[]): Expression<SqlBool> =>
  parts.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
const or = (parts: Expression<SqlBool>[]): Expression<SqlBool> =>
  sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
const not = (part: Expression<SqlBool>): Expression<SqlBool> => sql<SqlBool>`not ${part}`;

/** One field's conditions: an exact value or `{$operator: value, ...}`, each compared with the column's type. */
function fieldCondition(
  fields: Record<string, WqlField>,
  name: string,
  condition: unknown,
  at: string,
): Expression<SqlBool> {
  const field = fieldOf(fields, name);
  if (!field) throw invalidArgument([violation(`${at}.${name}`, 'is not a field the query filters on')]);
  const column = sql.ref(field.column);
  const operations =
    condition !== null && typeof condition === 'object' && !Array.isArray(condition)
      ? Object.entries(condition as Record<string, unknown>)
      : [['$eq', condition] as [string, unknown]];
  const parts: Expression<SqlBool>[] = [];
  for (const [operator, operand] of operations) {
    const path = `${at}.${name}.${operator}`;
    // each column compared with its own type: true/false for a flag, text for the rest
    const scalar = (raw: unknown): string | number | null => {
      if (raw === null) return null;
      if (field.kind === 'boolean' && typeof raw === 'boolean') return raw ? 1 : 0;
      if (field.kind !== 'boolean' && typeof raw === 'string') return raw;
      throw invalidArgument([
        violation(path, field.kind === 'boolean' ? 'must be true or false' : 'must be text'),
      ]);
    };
    if (Object.hasOwn(COMPARISONS, operator)) {
      const compared = scalar(operand);
      const op = COMPARISONS[operator as keyof typeof COMPARISONS];
      parts.push(
        compared === null
          ? sql<SqlBool>`${column} ${sql.raw(op === '=' ? 'is null' : 'is not null')}`
          : sql<SqlBool>`${column} ${sql.raw(op)} ${compared}`,
      );
    } else if (operator === '$in' || operator === '$hasSome') {
      if (!Array.isArray(operand) || operand.length > 100) {
        throw invalidArgument([violation(path, 'must be a list of at most 100 values')]);
      }
      const values = operand.map((raw) => {
        const compared = scalar(raw);
        if (compared === null) throw invalidArgument([violation(path, 'must not hold null')]);
        return compared;
      });
      parts.push(
        values.length === 0
          ? sql<SqlBool>`1 = 0`
          : sql<SqlBool>`${column} in (${sql.join(values.map((value) => sql`${value}`))})`,
      );
    } else if (operator === '$exists') {
      parts.push(sql<SqlBool>`${column} ${sql.raw(operand === false ? 'is null' : 'is not null')}`);
    } else if (operator === '$startsWith') {
      if (typeof operand !== 'string' || field.kind === 'boolean') {
        throw invalidArgument([violation(path, 'must be text, of a text field')]);
      }
      parts.push(sql<SqlBool>`substr(${column}, 1, ${operand.length}) = ${operand}`);
    } else {
      throw invalidArgument([violation(path, `is not an operator the query takes`)]);
    }
  }
  return and(parts);
}

/** The sort's fields in order (each a sortable field, or a field violation), then `tiebreak` for a stable order. */
export function applyWqlSort<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  fields: Record<string, WqlField>,
  sort: WqlSort[],
  tiebreak: string,
): SelectQueryBuilder<DB, TB, O> {
  let query = select;
  for (const [index, entry] of sort.entries()) {
    const field = fieldOf(fields, entry.fieldName);
    if (!field?.sortable) {
      throw invalidArgument([
        violation(`query.sort[${index}].fieldName`, `cannot sort by ${entry.fieldName}`),
      ]);
    }
    query = query.orderBy(sql.ref(field.column), entry.order === 'DESC' ? 'desc' : 'asc');
  }
  return query.orderBy(sql.ref(tiebreak));
}

/** What a next page's cursor carries: the query it continues, and how far it got. */
export interface WqlCursor {
  filter: Record<string, unknown>;
  sort: WqlSort[];
  offset: number;
}

export const writeWqlCursor = (cursor: WqlCursor) =>
  Buffer.from(JSON.stringify(cursor)).toString('base64url');

export function readWqlCursor(text: string): WqlCursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as WqlCursor;
    if (
      typeof cursor.offset === 'number' &&
      Number.isInteger(cursor.offset) &&
      cursor.offset >= 0 &&
      cursor.filter &&
      typeof cursor.filter === 'object' &&
      Array.isArray(cursor.sort)
    )
      return cursor;
  } catch {
    // refused below
  }
  throw invalidArgument([
    violation('query.cursorPaging.cursor', 'is not a cursor this query gave', 'FORMAT'),
  ]);
}
