import type { Filter } from '@cartwheel/sdk';
import { ALL_PRODUCTS_COLLECTION_ID } from './collections.ts';
import type { QueryFields } from './query.ts';

/**
 * Which rows a product query walks. A filter that puts every product it answers in one collection
 * (`collectionIds: {$hasSome: [id]}`, as a storefront's collection page asks) walks that collection's
 * listing, already in sort order; anything else walks the whole catalog (All Products). `rest` is the
 * filter left once the scope answers its part; absent when nothing is left, so the collection's own
 * counters give the total.
 */
export interface ProductScope {
  collectionId: string;
  rest?: Filter;
}

export function productScope(filter: unknown, fields: QueryFields): ProductScope {
  const parts = conjuncts(filter);
  if (!parts) return { collectionId: ALL_PRODUCTS_COLLECTION_ID, rest: filter as Filter };
  let collectionId = ALL_PRODUCTS_COLLECTION_ID;
  const rest: Filter[] = [];
  // the other collections a product must be in: one condition, so one pass over their memberships
  const alsoIn = new Set<string>();
  let alsoInKey = '';
  for (const [key, condition] of parts) {
    const collections = Object.hasOwn(fields, key) && fields[key]?.kind === 'collections';
    const required = collections ? requiredCollections(condition) : undefined;
    if (!required) {
      rest.push({ [key]: condition });
      continue;
    }
    for (const id of required) {
      if (id === ALL_PRODUCTS_COLLECTION_ID) continue; // every product is in it
      if (collectionId === ALL_PRODUCTS_COLLECTION_ID) collectionId = id;
      else if (id !== collectionId) {
        alsoIn.add(id);
        alsoInKey = key;
      }
    }
  }
  if (alsoIn.size > 0) rest.push({ [alsoInKey]: { $hasAll: [...alsoIn] } });
  if (rest.length === 0) return { collectionId };
  return { collectionId, rest: rest.length === 1 ? rest[0] : { $and: rest } };
}

/** A filter as the list of conditions that must all hold: `{a, b}` and `{$and: [{a}, {b}]}` alike. */
function conjuncts(filter: unknown): Array<[string, unknown]> | undefined {
  if (filter === undefined || filter === null) return [];
  if (typeof filter !== 'object' || Array.isArray(filter)) return undefined;
  const parts: Array<[string, unknown]> = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key !== '$and') {
      parts.push([key, condition]);
      continue;
    }
    if (!Array.isArray(condition)) return undefined;
    for (const item of condition) {
      const inner = conjuncts(item);
      if (!inner) return undefined;
      parts.push(...inner);
    }
  }
  return parts;
}

/** The collections a membership condition requires a product to be in, when that is all it says. */
function requiredCollections(condition: unknown): string[] | undefined {
  if (typeof condition === 'string') return [condition];
  if (!condition || typeof condition !== 'object' || Array.isArray(condition)) return undefined;
  const entries = Object.entries(condition);
  if (entries.length !== 1) return undefined;
  const [operator, value] = entries[0] as [string, unknown];
  const ids = operator === '$eq' ? [value] : Array.isArray(value) ? value : undefined;
  if (!ids?.every((id) => typeof id === 'string')) return undefined;
  if (operator === '$eq' || operator === '$hasAll') return ids as string[];
  if ((operator === '$in' || operator === '$hasSome') && ids.length === 1) return ids as string[];
  return undefined;
}
