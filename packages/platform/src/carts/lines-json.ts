import type { StoredLine } from '../pricing/contract.ts';
import { flat, hasExactly } from '../shared/text.ts';

const PLAIN_LINE_KEYS = ['id', 'quantity', 'catalogReference'];
const PLAIN_REFERENCE_KEYS = ['appId', 'catalogItemId'];

/**
 * `JSON.stringify(lines)`, text for text. The commonest line, a catalog item without options or
 * overrides, is written out by hand: on Node 20 stringifying a cart's few small line objects was a
 * tenth of a cart write, nearly all of it walking the objects rather than writing their strings.
 */
export function storedLinesJson(lines: readonly StoredLine[]): string {
  const pieces: string[] = [];
  for (const line of lines) pieces.push(plainLineJson(line) ?? JSON.stringify(line));
  return `[${pieces.join(',')}]`;
}

/**
 * A line holding exactly `id`, `quantity` and `catalogReference: {appId, catalogItemId}`, in that order
 * and nothing else, as `JSON.stringify` writes it; undefined for any other line.
 */
function plainLineJson(line: StoredLine): string | undefined {
  if (!hasExactly(line, PLAIN_LINE_KEYS)) return undefined;
  const { id, quantity, catalogReference: reference } = line;
  if (typeof id !== 'string' || typeof quantity !== 'number' || !Number.isFinite(quantity)) return undefined;
  if (reference === null || typeof reference !== 'object' || !hasExactly(reference, PLAIN_REFERENCE_KEYS)) {
    return undefined;
  }
  const { appId, catalogItemId } = reference;
  if (typeof appId !== 'string' || typeof catalogItemId !== 'string') return undefined;
  let made = madeTexts.get(id);
  if (made === undefined || made.appId !== appId || made.catalogItemId !== catalogItemId) {
    // a string's JSON is JSON.stringify's (quotes and escapes)
    made = {
      appId,
      catalogItemId,
      head: flat(`{"id":${JSON.stringify(id)},"quantity":`),
      tail: flat(
        `,"catalogReference":{"appId":${JSON.stringify(appId)},"catalogItemId":${JSON.stringify(catalogItemId)}}}`,
      ),
    };
    if (madeTexts.size >= MAX_MADE_TEXTS) madeTexts.clear();
    madeTexts.set(id, made);
  }
  // a finite number's JSON is its String()
  return made.head + quantity + made.tail;
}

/**
 * The text around the quantity made for each line id, with the reference it was made for: a cart
 * change writes all of the cart's lines, and all but one are as they were. Checked by value, so a line
 * that is not what the text was made from gets a text of its own.
 */
const madeTexts = new Map<string, { appId: string; catalogItemId: string; head: string; tail: string }>();
const MAX_MADE_TEXTS = 10_000;
