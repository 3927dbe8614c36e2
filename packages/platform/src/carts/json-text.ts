import type { Cart, LineItem } from '@cartwheel/sdk';

/*
 * The cart's JSON texts made from texts it already has: the only JSON of the cart put together by
 * hand, kept because it pays on add to cart (docs/architecture.md, "Kept for speed", with the
 * figures). Every text in them is still `JSON.stringify`'s; only the joins are written here, each the
 * same object `JSON.stringify` would write, with one member moved to the end.
 */

/**
 * The `{"cart": ...}` text of a cart answer, each line item's text made once per item. Pricing hands
 * out one item object per resolved line and never changes it (`LineResolver`, pricing/lines.ts: an
 * unchanged line in an unchanged catalog is the same object in every price), so a change to one line
 * of a cart serialises that line alone.
 */
export function cartAnswerText(cart: Cart): string {
  const { lineItems = [], ...rest } = cart;
  let items = '';
  for (let index = 0; index < lineItems.length; index++) {
    if (index > 0) items += ',';
    items += itemText(lineItems[index] as LineItem);
  }
  return `{"cart":${withMember(JSON.stringify(rest), 'lineItems', `[${items}]`)}}`;
}

/**
 * `{"cart": summary}` of a cart event with the stored lines' text as `lineItems`: the row a change
 * writes holds that very text (`toRow`), so the event does not serialise the lines a second time.
 */
export function cartEventText(summary: object, linesText: string): string {
  return `{"cart":${withMember(JSON.stringify(summary), 'lineItems', linesText)}}`;
}

/** An object's JSON text with one more member, `key` holding the JSON text `value`, at its end. */
function withMember(objectText: string, key: string, value: string): string {
  const separator = objectText.length > 2 ? ',' : '';
  return `${objectText.slice(0, -1)}${separator}${JSON.stringify(key)}:${value}}`;
}

/** Each item's text, by the item: an item is never changed once priced, and goes with its last price. */
const itemTexts = new WeakMap<LineItem, string>();

function itemText(item: LineItem): string {
  let text = itemTexts.get(item);
  if (text === undefined) {
    text = JSON.stringify(item);
    itemTexts.set(item, text);
  }
  return text;
}
