import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createProduct, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * `$startsWith` answers from a range over a byte-ordered index; the range's end is the prefix with its
 * last character raised by one. That must hold for every prefix a shopper can type: the last character
 * of the Basic Multilingual Plane (U+FFFF, whose UTF-16 successor is no character), astral characters
 * (two UTF-16 units, one character), and the characters either side of the surrogate range.
 */
const NAMES = [
  'Plain mug',
  'Plain\uffff mug',
  'Plain\uffff\uffff mug',
  'Plain😀 mug',
  'Plain😀😀 mug',
  'Plain😁 mug',
  'Plain\ud7ff mug',
  'Plain\ue000 mug',
  'Plain\u{10ffff} mug',
  'Plainz mug',
];

describe.each(DIALECTS)('prefix search over every kind of character on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
    for (const name of NAMES)
      await createProduct(platform, { name, productType: 'physical', priceData: { price: 5 } });
  });
  afterAll(() => platform?.stop());

  async function startingWith(prefix: string, path = '/stores-reader/v1/products/query') {
    const answer = await call(
      platform,
      'POST',
      path,
      { query: { filter: { name: { $startsWith: prefix } }, paging: { limit: 100 } } },
      visitor,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body.products as Array<{ name: string }>).map((product) => product.name).sort();
  }

  const PREFIXES = [
    'Plain\uffff',
    '\uffff',
    'Plain😀',
    '😀',
    'Plain\ud7ff',
    'Plain\ue000',
    'Plain\u{10ffff}',
    '\u{10ffff}',
    'plain',
  ];
  for (const prefix of PREFIXES) {
    const label = JSON.stringify(prefix).replace(
      /[^\x20-\x7e]/gu,
      (c) => `U+${c.codePointAt(0)!.toString(16)}`,
    );
    it(`answers exactly the names that start with ${label}, on both product queries`, async () => {
      const expected = NAMES.filter((name) => name.toLowerCase().startsWith(prefix.toLowerCase())).sort();
      expect(await startingWith(prefix)).toEqual(expected);
      expect(await startingWith(prefix, '/stores-reader/v1/products/query-platformized')).toEqual(expected);
    });
  }

  it('keeps answering, with every product still there', async () => {
    expect(await startingWith('')).toEqual([...NAMES].sort());
  });
});
