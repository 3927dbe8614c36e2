import { describe, expect, it } from 'vitest';
import { storedLinesJson } from '../src/carts/lines-json.ts';
import type { StoredLine } from '../src/pricing/contract.ts';

const APP = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const plain = (id: string, quantity: number, catalogItemId = 'p1'): StoredLine => ({
  id,
  quantity,
  catalogReference: { appId: APP, catalogItemId },
});

// every line a cart can store, and the odd ones a hand-written path could get wrong
const cases: Array<[string, unknown[]]> = [
  ['no lines', []],
  ['plain catalog lines', [plain('l1', 1), plain('l2', 250, 'p2')]],
  [
    'a line with options',
    [
      {
        ...plain('l1', 2),
        catalogReference: { appId: APP, catalogItemId: 'p1', options: { variantId: 'v1' } },
      },
    ],
  ],
  ['a line with its chosen variant', [{ ...plain('l1', 2), chosenVariantId: 'v1' }]],
  ['a line with overrides', [{ ...plain('l1', 1), catalogOverrideFields: { price: '1.00' } }]],
  [
    'a custom line',
    [{ id: 'c1', quantity: 3, custom: { quantity: 3, price: '2.50', productName: { original: 'Gift' } } }],
  ],
  [
    'keys in another order',
    [{ quantity: 1, id: 'l1', catalogReference: { catalogItemId: 'p1', appId: APP } }],
  ],
  ['a key holding undefined', [{ ...plain('l1', 1), chosenVariantId: undefined }]],
  [
    'a reference holding undefined',
    [{ id: 'l1', quantity: 1, catalogReference: { appId: APP, catalogItemId: undefined } }],
  ],
  ['strings that need escaping', [plain('l"1\\\n\u2028\u0001é😀', 1, '"><script>')]],
  [
    'quantities JSON writes its own way',
    [plain('a', -0), plain('b', Number.NaN), plain('c', 1e21), plain('d', 0.1 + 0.2)],
  ],
  [
    'a quantity that is not a number',
    [{ id: 'l1', quantity: '2', catalogReference: { appId: APP, catalogItemId: 'p1' } }],
  ],
  ['an array as a reference', [{ id: 'l1', quantity: 1, catalogReference: [APP, 'p1'] }]],
  [
    'a toJSON of its own',
    [{ id: 'l1', quantity: 1, catalogReference: { appId: APP, catalogItemId: 'p1' }, toJSON: () => 'x' }],
  ],
  ['a class instance', [Object.assign(new (class Line {})(), plain('l1', 1))]],
];

describe('stored lines as JSON text', () => {
  it.each(cases)('%s: the text JSON.stringify writes', (_name, lines) => {
    expect(storedLinesJson(lines as StoredLine[])).toBe(JSON.stringify(lines));
  });

  it('the same line id later in another quantity, product or app is written as it is then', () => {
    const versions: StoredLine[] = [
      plain('again', 1),
      plain('again', 2),
      plain('again', 2, 'p2'),
      { id: 'again', quantity: 2, catalogReference: { appId: 'another-app', catalogItemId: 'p2' } },
      plain('again', 1),
    ];
    for (const line of versions) expect(storedLinesJson([line])).toBe(JSON.stringify([line]));
  });

  it('reads back as the lines it was made from', () => {
    const lines = [plain('l1', 7), { ...plain('l2', 1), chosenVariantId: 'v2' }];
    expect(JSON.parse(storedLinesJson(lines))).toEqual(lines);
  });
});
