import { applicationError } from '../shared/errors.ts';
import type { StoredLine } from './contract.ts';
import { sameItemKey } from './lines.ts';

/**
 * The one rule for how many lines a cart or a checkout holds and how much of one line (README's
 * limits): both add lines through `addLines`, and every call that sets lines or quantities checks them
 * with `checkLineLimits`; the schemas of their calls take their bounds from here too.
 */

/** The most lines one cart or checkout holds. */
export const MAX_LINES = 300;
/** The most of one line a cart or checkout holds. */
export const MAX_LINE_QUANTITY = 100_000;

/** Whose lines: the errors name it (`CART_LINES_LIMIT_EXCEEDED`, `CHECKOUT_LINES_LIMIT_EXCEEDED`). */
export type LineHolder = 'cart' | 'checkout';

/**
 * Adds `added` to `lines` in place: the same catalog item and variant already held (`sameItemKey`)
 * grows that line instead. Refuses a line grown past `MAX_LINE_QUANTITY` and more than `MAX_LINES`
 * lines, unless merging says otherwise (a visitor's cart merged into the member's on sign-in drops
 * nothing: quantities are capped, and the lines may go past the limit).
 */
export function addLines(
  lines: StoredLine[],
  added: readonly StoredLine[],
  holder: LineHolder,
  merging: { capQuantity?: boolean; allowOverLimit?: boolean } = {},
): void {
  const byItem = new Map<string, StoredLine>();
  for (const line of lines) {
    const key = sameItemKey(line);
    if (key !== undefined) byItem.set(key, line);
  }
  for (const line of added) {
    const key = sameItemKey(line);
    const existing = key === undefined ? undefined : byItem.get(key);
    if (existing) {
      const quantity = existing.quantity + line.quantity;
      if (quantity > MAX_LINE_QUANTITY && !merging.capQuantity) throw quantityLimitError(existing.id, holder);
      existing.quantity = Math.min(quantity, MAX_LINE_QUANTITY);
      if (existing.custom) existing.custom.quantity = existing.quantity;
      continue;
    }
    const copy = { ...line };
    lines.push(copy);
    if (key !== undefined) byItem.set(key, copy);
  }
  if (lines.length > MAX_LINES && !merging.allowOverLimit) throw linesLimitError(holder);
}

/** Refuses lines past the limits: more than `MAX_LINES`, or a line of more than `MAX_LINE_QUANTITY`. */
export function checkLineLimits(lines: readonly StoredLine[], holder: LineHolder): void {
  if (lines.length > MAX_LINES) throw linesLimitError(holder);
  const over = lines.find((line) => line.quantity > MAX_LINE_QUANTITY);
  if (over) throw quantityLimitError(over.id, holder);
}

function quantityLimitError(lineItemId: string, holder: LineHolder) {
  return applicationError(
    'INVALID_ARGUMENT',
    'LINE_QUANTITY_LIMIT_EXCEEDED',
    `a line of the ${holder} holds at most ${MAX_LINE_QUANTITY} items`,
    { lineItemId, maxQuantity: MAX_LINE_QUANTITY },
  );
}

function linesLimitError(holder: LineHolder) {
  return applicationError(
    'INVALID_ARGUMENT',
    `${holder.toUpperCase()}_LINES_LIMIT_EXCEEDED`,
    `a ${holder} holds at most ${MAX_LINES} line items`,
    { maxLineItems: MAX_LINES },
  );
}
