import { type DomainError, invalidArgument, violation } from './errors.ts';

/**
 * The budget of one filter in the wire's query language (catalog queries, order searches): how many
 * conditions it makes and how deep it nests (what a schema cannot count), and the size of each list
 * and string in it. A filter past it is refused before any SQL is built from it.
 */

/** Values in one `$in`, `$nin`, `$hasSome` or `$hasAll` list. */
export const MAX_FILTER_LIST = 100;
/** Conditions in one filter: each operator on a field, and each `$and`, `$or`, `$not`. */
export const MAX_FILTER_CONDITIONS = 50;
/** How deep `$and`, `$or` and `$not` nest. */
export const MAX_FILTER_DEPTH = 5;
/** Characters in a string a filter compares or searches with (`$eq`, `$in`, `$startsWith`, ...). */
export const MAX_FILTER_TEXT = 200;
/**
 * Holds a filter to the budget: how many conditions it makes and how deep it nests (what a schema
 * cannot count), and the size of each list and string in it. Stops at the first thing past the
 * budget, so a filter of any size costs at most that many steps. Runs before the route's schema
 * walks the filter, and again in the service for callers that are not routes.
 */
export function checkFilterBudget(filter: unknown, path = 'query.filter'): void {
  if (filter === null || typeof filter !== 'object') return;
  spendOn(filter, path, 0, { left: MAX_FILTER_CONDITIONS, path });
}

function spendOn(node: object, at: string, depth: number, budget: { left: number; path: string }): void {
  if (Array.isArray(node)) return;
  for (const key in node) {
    const value = (node as Record<string, unknown>)[key];
    if (key === '$and' || key === '$or' || key === '$not') {
      if (depth >= MAX_FILTER_DEPTH) {
        throw bad(`${at}.${key}`, `nests $and, $or and $not at most ${MAX_FILTER_DEPTH} deep`, 'MAX_SIZE');
      }
      spend(budget);
      if (value === null || typeof value !== 'object') continue;
      if (!Array.isArray(value)) spendOn(value, `${at}.${key}`, depth + 1, budget);
      else {
        for (let index = 0; index < value.length; index++) {
          const item = value[index];
          if (item !== null && typeof item === 'object') {
            spendOn(item, `${at}.${key}[${index}]`, depth + 1, budget);
          }
        }
      }
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      // operators (`{$gt: 1, $lt: 5}`): each one a condition
      for (const operator in value) {
        spend(budget);
        checkOperand((value as Record<string, unknown>)[operator], at, key, operator);
      }
    } else {
      spend(budget);
      checkOperand(value, at, key);
    }
  }
}

function spend(budget: { left: number; path: string }): void {
  if (--budget.left < 0) {
    throw bad(budget.path, `must hold at most ${MAX_FILTER_CONDITIONS} conditions`, 'MAX_SIZE');
  }
}

/** A compared value or list; its field's path is only written out for a refusal. */
function checkOperand(value: unknown, at: string, key: string, operator?: string): void {
  if (typeof value === 'string') {
    if (value.length > MAX_FILTER_TEXT) {
      throw bad(
        operandField(at, key, operator),
        `must be at most ${MAX_FILTER_TEXT} characters`,
        'MAX_LENGTH',
      );
    }
  } else if (Array.isArray(value)) {
    if (value.length > MAX_FILTER_LIST) {
      throw bad(operandField(at, key, operator), `must hold at most ${MAX_FILTER_LIST} items`, 'MAX_SIZE');
    }
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      if (typeof item === 'string' && item.length > MAX_FILTER_TEXT) {
        const field = `${operandField(at, key, operator)}[${index}]`;
        throw bad(field, `must be at most ${MAX_FILTER_TEXT} characters`, 'MAX_LENGTH');
      }
    }
  }
}

function operandField(at: string, key: string, operator: string | undefined): string {
  return operator === undefined ? `${at}.${key}` : `${at}.${key}.${operator}`;
}

function bad(field: string, description: string, rule: Parameters<typeof violation>[2]): DomainError {
  return invalidArgument([violation(field, description, rule)]);
}
