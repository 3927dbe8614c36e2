import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PLATFORM = path.resolve(HERE, '../src/platform.ts');
const ARCHITECTURE = path.resolve(HERE, '../../../docs/architecture.md');
/** What platform.ts builds that is no domain of the map: the token service's own revocation reader. */
const NOT_DOMAINS = new Set(['revocations']);

/** `orderOperations` and `store-settings` both as `order operations`, `store settings`. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/-/g, ' ')
    .toLowerCase()
    .trim();

/** The text of the call whose `(` is at `open`: up to its matching `)`. */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    if (text[at] === '(') depth++;
    else if (text[at] === ')' && --depth === 0) return text.slice(open + 1, at);
  }
  throw new Error(`no end to the call at ${open}`);
}

/**
 * Who each service built in `openServices` is built from: the services (`const x = new X(...)`, or
 * `x: new X(...)` in the services object) its constructor's arguments name as values, not as keys.
 */
export function wiredMap(source: string): Map<string, string[]> {
  const body = source.slice(source.indexOf('export async function openServices'));
  const built = [...body.matchAll(/(?:const\s+(\w+)(?::\s*\w+)?\s*=|(\w+):)\s*new\s+\w+\(/g)].map(
    (match) => ({
      name: (match[1] ?? match[2])!,
      open: match.index! + match[0].length - 1,
    }),
  );
  const names = new Set(built.map(({ name }) => name).filter((name) => !NOT_DOMAINS.has(name)));
  const map = new Map<string, string[]>();
  for (const { name, open } of built) {
    if (!names.has(name)) continue;
    const args = argumentsAt(body, open);
    // an identifier that is neither a key (`staff:`) nor a property (`database.db`)
    const used = [...args.matchAll(/(?<![.\w])(\w+)\b(?!\s*:)/g)]
      .map((match) => match[1]!)
      .filter((id) => names.has(id) && id !== name);
    if (used.length > 0) map.set(wordsOf(name), [...new Set(used.map(wordsOf))].sort());
  }
  return map;
}

/** The map docs/architecture.md draws: `a ──> b (what for), c` lines of its code block. */
export function drawnMap(markdown: string): Map<string, string[]> {
  const start = markdown.indexOf('"calls"):');
  const block = markdown.slice(
    markdown.indexOf('```', start) + 3,
    markdown.indexOf('```', markdown.indexOf('```', start) + 3),
  );
  const map = new Map<string, string[]>();
  for (const line of block.split('\n').filter((text) => text.includes('──>'))) {
    const [from, to] = line.split('──>') as [string, string];
    const targets = to
      .replace(/\([^)]*\)/g, '')
      .split(',')
      .map(wordsOf)
      .filter(Boolean);
    map.set(wordsOf(from), [...new Set(targets)].sort());
  }
  return map;
}

describe("docs/architecture.md's dependency map", () => {
  const wired = wiredMap(fs.readFileSync(PLATFORM, 'utf8'));

  it('reads the wiring (the check sees constructors and their arguments at all)', () => {
    expect(wired.get('buying')).toEqual([
      'carts',
      'checkouts',
      'members',
      'orders',
      'payments',
      'subscriptions',
    ]);
    expect(
      wiredMap(
        'export async function openServices() { const a = new A(db, { b: c, d }); const c = new C(); const d = new D(db.c); }',
      ),
    ).toEqual(new Map([['a', ['c', 'd']]]));
  });

  it('is what platform.ts wires: every service with what it is built from', () => {
    const drawn = drawnMap(fs.readFileSync(ARCHITECTURE, 'utf8'));
    expect(Object.fromEntries([...drawn].sort())).toEqual(Object.fromEntries([...wired].sort()));
  });
});
