import { jsonDepthExceeds, MAX_BODY_DEPTH, refuseUnstorableText } from '../http/input.ts';
import { invalidArgument, violation } from '../shared/errors.ts';

/**
 * The hosted platform's REST documentation writes a query's `filter` and `sort` as JSON text
 * (`"filter": "{\"name\": \"Mug\"}"`) and a sort entry as `{"price": "asc"}`; its client sends
 * objects and `{fieldName, order}`. Rewrites `query` in place into the client's form, so one schema
 * checks both; text that is not JSON is a field violation on the field it was sent as.
 */
export function readRestQueryForms(query: Record<string, unknown>): void {
  for (const field of ['filter', 'sort'] as const) {
    const value = query[field];
    if (typeof value === 'string') query[field] = parseJsonField(value, `query.${field}`);
  }
  if (Array.isArray(query.sort)) query.sort = query.sort.map(sortEntry);
}

function parseJsonField(text: string, path: string): unknown {
  if (text.trim() === '') return undefined;
  if (jsonDepthExceeds(text))
    throw invalidArgument([violation(path, `nests deeper than ${MAX_BODY_DEPTH} levels`, 'MAX_SIZE')]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidArgument([violation(path, 'is neither an object nor JSON text of one', 'FORMAT')]);
  }
  // what the shell refuses in a body (NUL, half a surrogate pair, `__proto__`), refused here too
  refuseUnstorableText(parsed, path);
  return parsed;
}

/** `{"price": "asc"}` (one key, an order for its value) as `{fieldName: "price", order: "ASC"}`. */
function sortEntry(entry: unknown): unknown {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
  // an entry naming the client's own keys is in the client's form, however incomplete
  if ('fieldName' in entry || 'order' in entry) return entry;
  const keys = Object.keys(entry);
  if (keys.length !== 1) return entry;
  const fieldName = keys[0]!;
  const order = (entry as Record<string, unknown>)[fieldName];
  return typeof order === 'string' ? { fieldName, order: order.toUpperCase() } : entry;
}
