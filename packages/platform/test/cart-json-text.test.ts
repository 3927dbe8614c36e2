import type { Cart, LineItem } from '@cartwheel/sdk';
import { describe, expect, it } from 'vitest';
import { cartAnswerText, cartEventText } from '../src/carts/json-text.ts';

const item = (id: string, quantity: number, name: string): LineItem => ({
  id,
  quantity,
  productName: { original: name, translated: name },
  catalogReference: { appId: 'app', catalogItemId: `product-${id}`, options: { variantId: 'v' } },
  price: { amount: '12.5', convertedAmount: '12.5', formattedAmount: '$12.50' },
  descriptionLines: [{ name: { original: 'Size' }, plainText: { original: 'M' } }],
  availability: { status: 'AVAILABLE' },
});

const cartOf = (lineItems: LineItem[], extra: Partial<Cart> = {}): Cart => ({
  id: 'cart-1',
  lineItems,
  buyerNote: null as unknown as undefined,
  buyerInfo: { visitorId: 'visitor-1' },
  currency: 'USD',
  conversionCurrency: 'USD',
  taxIncludedInPrices: false,
  checkoutId: null as unknown as undefined,
  appliedDiscounts: [],
  ...extra,
});

/** What `JSON.stringify({ cart })` answers, read back: the text must say exactly this. */
const stringified = (cart: Cart) => JSON.parse(JSON.stringify({ cart }));

describe('the cart JSON texts', () => {
  it('says what JSON.stringify of the cart says', () => {
    const carts = [
      cartOf([]),
      cartOf([item('a', 1, 'Mug')]),
      cartOf([item('a', 2, 'Mug'), item('b', 1, 'Tee'), item('c', 7, 'Cap')]),
      cartOf([item('a', 1, 'Quote " back\\slash </script> \u2028 emoji \u{1F600}')], {
        buyerNote: '"lineItems":[] , } {',
        contactInfo: { address: { country: 'US', addressLine: 'line\nbreak' } },
        selectedShippingOption: { code: 'standard' },
      }),
    ];
    for (const cart of carts) {
      const text = cartAnswerText(cart);
      expect(JSON.parse(text)).toEqual(stringified(cart));
    }
  });

  it('keeps undefined members out and an empty cart valid', () => {
    const cart = { lineItems: undefined } as unknown as Cart;
    expect(JSON.parse(cartAnswerText(cart))).toEqual({ cart: { lineItems: [] } });
    const sparse = cartOf([item('a', 1, 'Mug')], { buyerNote: undefined });
    expect(JSON.parse(cartAnswerText(sparse)).cart).not.toHaveProperty('buyerNote');
  });

  it('answers an item once made in its own text, and another item of the line in its own', () => {
    const first = item('a', 1, 'Mug');
    const other = item('b', 1, 'Tee');
    const before = JSON.parse(cartAnswerText(cartOf([first, other])));
    // the line in another quantity is another item (pricing never changes an item it handed out)
    const grown = { ...first, quantity: 3 };
    const after = JSON.parse(cartAnswerText(cartOf([grown, other])));
    expect(before.cart.lineItems.map((line: LineItem) => line.quantity)).toEqual([1, 1]);
    expect(after.cart.lineItems.map((line: LineItem) => line.quantity)).toEqual([3, 1]);
    expect(after.cart.lineItems[1]).toEqual(before.cart.lineItems[1]);
  });

  it("puts the stored lines' text into the event as its lineItems", () => {
    const lines = [{ id: 'l1', quantity: 2, catalogReference: { appId: 'app', catalogItemId: 'p "1"' } }];
    const summary = { id: 'cart-1', buyerNote: 'a } note', checkoutId: null };
    const text = cartEventText(summary, JSON.stringify(lines));
    expect(JSON.parse(text)).toEqual({ cart: { ...summary, lineItems: lines } });
    expect(JSON.parse(cartEventText({}, '[]'))).toEqual({ cart: { lineItems: [] } });
  });
});
