import type { FieldViolation, IdentityProfile, Member, MemberFieldset } from '@cartwheel/sdk';
import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { checkFilterBudget, MAX_FILTER_TEXT } from '../shared/filter-budget.ts';
import { IDENTITY_STATUS_OF } from './status.ts';

/**
 * Member lists and queries (point 7): the wire's filter, sorting, search and offset paging as SQL over
 * `members` joined with `identities`, and the fieldsets that decide how much of each member an answer
 * holds. A stranger (visitor or another member) sees approved public members only, may filter and
 * search on public fields only, and gets the PUBLIC fieldset whatever they ask.
 */

export type MemberEb = ExpressionBuilder<Tables, 'members' | 'identities'>;
export type MemberCondition = (eb: MemberEb) => Expression<SqlBool>;

/** The wire's default page, and the most one page holds. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
/** The deepest offset a page may start at: deeper pages are for filters, not for paging. */
export const MAX_OFFSET = 100_000;

type Column =
  | { kind: 'column'; ref: string; type: 'text' | 'date' | 'status' }
  | { kind: 'profile'; key: keyof IdentityProfile };

/** The fields a filter and a sort may name, and where each is kept. */
const FIELDS: Record<string, Column> = {
  id: { kind: 'column', ref: 'members.id', type: 'text' },
  loginEmail: { kind: 'column', ref: 'identities.email', type: 'text' },
  status: { kind: 'column', ref: 'identities.status', type: 'status' },
  privacyStatus: { kind: 'column', ref: 'members.privacy_status', type: 'text' },
  activityStatus: { kind: 'column', ref: 'members.activity_status', type: 'text' },
  'profile.slug': { kind: 'column', ref: 'members.slug', type: 'text' },
  'profile.nickname': { kind: 'profile', key: 'nickname' },
  'contact.firstName': { kind: 'profile', key: 'firstName' },
  'contact.lastName': { kind: 'profile', key: 'lastName' },
  createdDate: { kind: 'column', ref: 'members.created_at', type: 'date' },
  updatedDate: { kind: 'column', ref: 'members.updated_at', type: 'date' },
  lastLoginDate: { kind: 'column', ref: 'members.last_login_at', type: 'date' },
};

/** What a stranger may filter, sort and search on: what the PUBLIC fieldset shows. */
const PUBLIC_FIELDS = new Set(['id', 'profile.slug', 'profile.nickname', 'createdDate']);
const SEARCH_FIELDS = [
  'loginEmail',
  'contact.firstName',
  'contact.lastName',
  'profile.nickname',
  'profile.slug',
];

const COMPARISONS = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/** How a caller reads members: staff see everyone and every field; strangers the public view. */
export interface Reader {
  staff: boolean;
  dialect: DialectName;
}

/** One text field of the identity's JSON profile, on either database. */
function profileText(dialect: DialectName, key: string): RawBuilder<string | null> {
  return dialect === 'postgres'
    ? sql<string | null>`(${sql.ref('identities.profile')}::jsonb ->> ${sql.lit(key)})`
    : sql<string | null>`json_extract(${sql.ref('identities.profile')}, ${sql.lit(`$.${key}`)})`;
}

function expressionOf(column: Column, dialect: DialectName) {
  return column.kind === 'profile' ? profileText(dialect, column.key) : sql.ref(column.ref);
}

function fieldNamed(name: string, reader: Reader, at: string): Column {
  const column = Object.hasOwn(FIELDS, name) ? FIELDS[name] : undefined;
  const allowed = reader.staff ? Object.keys(FIELDS) : [...PUBLIC_FIELDS];
  if (!column || !allowed.includes(name)) {
    throw invalidArgument([
      violation(at, `members filter and sort on ${allowed.join(', ')}`, 'FIELD_NOT_ALLOWED'),
    ]);
  }
  return column;
}

/** The wire's filter (`{"status": {"$in": [...]}, "$or": [...]}`) as a SQL condition. */
export function compileMemberFilter(
  filter: unknown,
  reader: Reader,
  field = 'query.filter',
): MemberCondition {
  if (filter === undefined || filter === null) return (eb) => eb.lit(true);
  if (typeof filter !== 'object' || Array.isArray(filter)) {
    throw invalidArgument([violation(field, 'must be an object', 'FORMAT')]);
  }
  checkFilterBudget(filter, field);
  return compile(filter as Record<string, unknown>, reader, field);
}

function compile(filter: Record<string, unknown>, reader: Reader, field: string): MemberCondition {
  const parts: MemberCondition[] = [];
  for (const [key, value] of Object.entries(filter)) {
    const at = `${field}.${key}`;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0)
        throw invalidArgument([violation(at, 'must be a list of filters', 'FORMAT')]);
      const inner = value.map((item, index) => {
        if (!item || typeof item !== 'object' || Array.isArray(item))
          throw invalidArgument([violation(`${at}[${index}]`, 'must be an object', 'FORMAT')]);
        return compile(item as Record<string, unknown>, reader, `${at}[${index}]`);
      });
      parts.push((eb) => (key === '$and' ? eb.and(inner.map((c) => c(eb))) : eb.or(inner.map((c) => c(eb)))));
    } else if (key === '$not') {
      if (!value || typeof value !== 'object' || Array.isArray(value))
        throw invalidArgument([violation(at, 'must be an object', 'FORMAT')]);
      const inner = compile(value as Record<string, unknown>, reader, at);
      parts.push((eb) => eb.not(inner(eb)));
    } else {
      parts.push(fieldCondition(fieldNamed(key, reader, at), value, at, reader.dialect));
    }
  }
  return (eb) => (parts.length === 0 ? eb.lit(true) : eb.and(parts.map((part) => part(eb))));
}

function fieldCondition(
  column: Column,
  value: unknown,
  field: string,
  dialect: DialectName,
): MemberCondition {
  const ref = expressionOf(column, dialect);
  const operand = (raw: unknown, at: string): string => {
    if (typeof raw !== 'string') throw invalidArgument([violation(at, 'must be a string', 'FORMAT')]);
    if (raw.length > MAX_FILTER_TEXT)
      throw invalidArgument([violation(at, `must be at most ${MAX_FILTER_TEXT} characters`, 'MAX_LENGTH')]);
    if (column.kind === 'column' && column.type === 'date') {
      const date = new Date(raw);
      if (Number.isNaN(date.getTime()))
        throw invalidArgument([violation(at, 'must be an ISO-8601 date', 'FORMAT')]);
      return date.toISOString();
    }
    if (column.kind === 'column' && column.type === 'status') {
      const status = Object.hasOwn(IDENTITY_STATUS_OF, raw)
        ? IDENTITY_STATUS_OF[raw as keyof typeof IDENTITY_STATUS_OF]
        : undefined;
      if (!status)
        throw invalidArgument([
          violation(at, 'must be PENDING, APPROVED, BLOCKED or OFFLINE', 'INVALID_ENUM_VALUE'),
        ]);
      return status;
    }
    if (column.kind === 'column' && column.ref === 'identities.email') return raw.trim().toLowerCase();
    return raw;
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (value === null) return (eb) => eb(ref, 'is', null);
    const equal = operand(value, field);
    return (eb) => eb(ref, '=', equal);
  }
  const parts: MemberCondition[] = [];
  const problems: FieldViolation[] = [];
  for (const [operator, raw] of Object.entries(value as Record<string, unknown>)) {
    const at = `${field}.${operator}`;
    const op = Object.hasOwn(COMPARISONS, operator)
      ? COMPARISONS[operator as keyof typeof COMPARISONS]
      : undefined;
    if (op) {
      const compared = operand(raw, at);
      parts.push((eb) => eb(ref, op, compared));
    } else if (operator === '$in' || operator === '$nin' || operator === '$hasSome') {
      if (!Array.isArray(raw)) throw invalidArgument([violation(at, 'must be a list of values', 'FORMAT')]);
      const values = raw.map((item, index) => operand(item, `${at}[${index}]`));
      const negated = operator === '$nin';
      if (values.length === 0) parts.push((eb) => eb.lit(negated));
      else parts.push((eb) => eb(ref, negated ? 'not in' : 'in', values));
    } else if (operator === '$exists') {
      if (typeof raw !== 'boolean') throw invalidArgument([violation(at, 'must be true or false', 'FORMAT')]);
      parts.push((eb) => eb(ref, raw ? 'is not' : 'is', null));
    } else if (operator === '$startsWith') {
      const prefix = operand(raw, at);
      const pattern = `${escapeLike(prefix.toLowerCase())}%`;
      parts.push(() => likeLower(ref, pattern));
    } else {
      problems.push(violation(at, `is not an operator members filter with`, 'INVALID_ENUM_VALUE'));
    }
  }
  if (problems.length > 0) throw invalidArgument(problems);
  if (parts.length === 0) throw invalidArgument([violation(field, 'names no operator', 'FORMAT')]);
  return (eb) => eb.and(parts.map((part) => part(eb)));
}

/** `lower(ref) LIKE pattern`, with `\` escaping (the same on both databases). */
function likeLower(
  ref: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  pattern: string,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${ref}) like ${pattern} escape '\\'`;
}

/** `%`, `_` and `\` stand for themselves (`LIKE ... ESCAPE '\'` on both databases). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Free text over the named fields (all searchable ones by default), any of them containing it. */
export function compileSearch(search: unknown, reader: Reader, field = 'search'): MemberCondition {
  if (search === undefined || search === null) return (eb) => eb.lit(true);
  if (typeof search !== 'object' || Array.isArray(search))
    throw invalidArgument([violation(field, 'must be an object', 'FORMAT')]);
  const { expression, fields } = search as { expression?: unknown; fields?: unknown };
  if (expression === undefined || expression === null || expression === '') return (eb) => eb.lit(true);
  if (typeof expression !== 'string' || expression.length > MAX_FILTER_TEXT)
    throw invalidArgument([
      violation(`${field}.expression`, `must be a text of at most ${MAX_FILTER_TEXT} characters`, 'FORMAT'),
    ]);
  const allowed = SEARCH_FIELDS.filter((name) => reader.staff || PUBLIC_FIELDS.has(name));
  let names = allowed;
  if (fields !== undefined && fields !== null) {
    if (!Array.isArray(fields))
      throw invalidArgument([violation(`${field}.fields`, 'must be a list', 'FORMAT')]);
    names = fields.map((name, index) => {
      if (typeof name !== 'string' || !allowed.includes(name))
        throw invalidArgument([
          violation(`${field}.fields[${index}]`, `members search ${allowed.join(', ')}`, 'FIELD_NOT_ALLOWED'),
        ]);
      return name;
    });
  }
  const pattern = `%${escapeLike(expression.trim().toLowerCase())}%`;
  const refs = names.map((name) => expressionOf(FIELDS[name]!, reader.dialect));
  return (eb) => eb.or(refs.map((ref) => likeLower(ref, pattern)));
}

export interface Ordering {
  ref: ReturnType<typeof expressionOf>;
  descending: boolean;
}

/** The wire's `sorting` (`[{fieldName, order}]`), newest first by default; the id breaks ties. */
export function compileSorting(sorting: unknown, reader: Reader, field = 'sorting'): Ordering[] {
  if (sorting === undefined || sorting === null)
    return [{ ref: sql.ref('members.created_at'), descending: true }];
  if (!Array.isArray(sorting)) throw invalidArgument([violation(field, 'must be a list', 'FORMAT')]);
  if (sorting.length > 5) throw invalidArgument([violation(field, 'sorts on at most 5 fields', 'MAX_SIZE')]);
  const orderings = sorting.map((entry, index) => {
    const at = `${field}[${index}]`;
    const { fieldName, order } = (entry ?? {}) as { fieldName?: unknown; order?: unknown };
    if (typeof fieldName !== 'string')
      throw invalidArgument([violation(`${at}.fieldName`, 'is required', 'REQUIRED_FIELD')]);
    if (order !== undefined && order !== null && order !== 'ASC' && order !== 'DESC')
      throw invalidArgument([violation(`${at}.order`, 'must be ASC or DESC', 'INVALID_ENUM_VALUE')]);
    return {
      ref: expressionOf(fieldNamed(fieldName, reader, `${at}.fieldName`), reader.dialect),
      descending: order === 'DESC',
    };
  });
  return orderings.length > 0 ? orderings : [{ ref: sql.ref('members.created_at'), descending: true }];
}

/** `{limit, offset}`, checked and defaulted (50 from 0, point 9). */
export function pagingOf(paging: unknown, field = 'paging'): { limit: number; offset: number } {
  if (paging === undefined || paging === null) return { limit: DEFAULT_LIMIT, offset: 0 };
  if (typeof paging !== 'object' || Array.isArray(paging))
    throw invalidArgument([violation(field, 'must be an object', 'FORMAT')]);
  const { limit, offset } = paging as { limit?: unknown; offset?: unknown };
  const number = (value: unknown, name: string, min: number, max: number, fallback: number) => {
    if (value === undefined || value === null) return fallback;
    const parsed = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof parsed !== 'number' || !Number.isInteger(parsed))
      throw invalidArgument([violation(`${field}.${name}`, 'must be a whole number', 'FORMAT')]);
    if (parsed < min)
      throw invalidArgument([violation(`${field}.${name}`, `must be at least ${min}`, 'MIN')]);
    if (parsed > max) throw invalidArgument([violation(`${field}.${name}`, `must be at most ${max}`, 'MAX')]);
    return parsed;
  };
  return {
    limit: number(limit, 'limit', 0, MAX_LIMIT, DEFAULT_LIMIT),
    offset: number(offset, 'offset', 0, MAX_OFFSET, 0),
  };
}

/** The fieldsets asked for (`fieldsets=PUBLIC&fieldsets=FULL`, or one), the widest wins. */
export function fieldsetOf(asked: unknown, fallback: MemberFieldset, field = 'fieldsets'): MemberFieldset {
  if (asked === undefined || asked === null) return fallback;
  const list = Array.isArray(asked) ? asked : [asked];
  if (list.length === 0) return fallback;
  const rank = { PUBLIC: 0, EXTENDED: 1, FULL: 2 } as const;
  let widest: MemberFieldset = 'PUBLIC';
  list.forEach((value: unknown, index) => {
    if (value !== 'PUBLIC' && value !== 'EXTENDED' && value !== 'FULL')
      throw invalidArgument([
        violation(
          Array.isArray(asked) ? `${field}[${index}]` : field,
          'must be PUBLIC, EXTENDED or FULL',
          'INVALID_ENUM_VALUE',
        ),
      ]);
    if (rank[value] > rank[widest]) widest = value;
  });
  return widest;
}

/**
 * A member as a fieldset shows it. PUBLIC is what a stranger may see: the public profile of a public
 * member, and of a private one nothing but its id and privacy. EXTENDED adds the login email, the
 * statuses and the dates; FULL is everything (contact details included).
 */
export function inFieldset(member: Member, fieldset: MemberFieldset): Member {
  if (fieldset === 'FULL') return member;
  if (member.privacyStatus === 'PRIVATE' && fieldset === 'PUBLIC') {
    return { id: member.id, privacyStatus: 'PRIVATE' };
  }
  const profile = {
    nickname: member.profile?.nickname ?? null,
    slug: member.profile?.slug ?? null,
    ...(member.profile?.photo ? { photo: member.profile.photo } : {}),
    ...(member.profile?.title ? { title: member.profile.title } : {}),
  };
  const publicView: Member = {
    id: member.id,
    profile,
    privacyStatus: member.privacyStatus,
    activityStatus: member.activityStatus,
    ...(member.createdDate ? { createdDate: member.createdDate } : {}),
  };
  if (fieldset === 'PUBLIC') return publicView;
  return {
    ...publicView,
    loginEmail: member.loginEmail,
    loginEmailVerified: member.loginEmailVerified,
    status: member.status,
    contactId: member.contactId,
    ...(member.updatedDate ? { updatedDate: member.updatedDate } : {}),
    ...(member.lastLoginDate ? { lastLoginDate: member.lastLoginDate } : {}),
  };
}
