import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
/** The composition root, and the only files that may import it: the command and the package's entry. */
const ROOT = 'platform.ts';
const MAY_IMPORT_ROOT = new Set(['platform.ts', 'main.ts', 'index.ts']);

/** Every TypeScript file under src, as a path relative to it (`carts/service.ts`). */
function sourceFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(SRC, full).split(path.sep).join('/')] : [];
  });
}

/** The source files a file imports (static, type-only, re-exports and dynamic), relative to src. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) =>
      path
        .relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), specifier))
        .split(path.sep)
        .join('/'),
    );
}

/** The import circles of `graph`: each set of files that import one another round, sorted. */
function importCircles(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components; a component of two or more files is a circle
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return circles;
}

/**
 * Issue 19: each domain declares the services it uses (`...Dependencies` beside its service, the
 * route registrar's `services` parameter), and only the composition root knows every domain. A domain
 * file that imports platform.ts (for its `Services`) would put every domain in one import circle again.
 */
describe('domain imports', () => {
  const files = sourceFiles();

  it('reads the platform import of the files allowed one (the check sees imports at all)', () => {
    expect(files).toContain('carts/service.ts');
    expect(importsOf('main.ts')).toContain(ROOT);
    expect(importsOf('index.ts')).toContain(ROOT);
    expect(importsOf('platform.ts')).toEqual(expect.arrayContaining(['carts/service.ts', 'buying/path.ts']));
  });

  it('no file but platform.ts, main.ts and index.ts imports platform.ts', () => {
    const offenders = files.filter((file) => !MAY_IMPORT_ROOT.has(file) && importsOf(file).includes(ROOT));
    expect(offenders).toEqual([]);
  });

  it('finds an import circle where there is one', () => {
    const graph = new Map([
      ['a/one.ts', ['b/two.ts']],
      ['b/two.ts', ['a/one.ts', 'c/three.ts']],
      ['c/three.ts', []],
    ]);
    expect(importCircles(graph)).toEqual([['a/one.ts', 'b/two.ts']]);
  });

  it('no import circle among the source files, within a domain or across domains', () => {
    // type-only imports count too: a circle of types is still two files that cannot be read alone
    const graph = new Map(
      files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]),
    );
    expect(importCircles(graph)).toEqual([]);
  });

  it("no domain's service reaches the buying path above it", () => {
    // the orchestrator (buying/) calls carts, checkouts, orders and payments; never the other way
    const below = files.filter((file) => !file.startsWith('buying/') && !MAY_IMPORT_ROOT.has(file));
    const upward = below.filter(
      (file) => !file.endsWith('routes.ts') && importsOf(file).some((target) => target.startsWith('buying/')),
    );
    expect(upward).toEqual([]);
  });
});

describe('background work', () => {
  /**
   * Every timer of background work is a job of the worker runtime (workers/): one place that
   * starts, single-flights, leases and stops them. The SQLite checkpointer is a thread of its own,
   * whose timer runs there, not on the platform's event loop.
   */
  const MAY_SET_INTERVALS = new Set(['db/database.ts']);
  const intervalsIn = (file: string) =>
    /\bsetInterval\s*\(/.test(fs.readFileSync(path.join(SRC, file), 'utf8'));

  it('sees a setInterval where there is one (the check reads the files at all)', () => {
    expect(intervalsIn('db/database.ts')).toBe(true);
  });

  it('no file outside workers/ calls setInterval: a background loop is a job of the runtime', () => {
    const loops = sourceFiles().filter(
      (file) => !file.startsWith('workers/') && !MAY_SET_INTERVALS.has(file) && intervalsIn(file),
    );
    expect(loops).toEqual([]);
  });
});
