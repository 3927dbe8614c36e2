import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, loops, SRC, sourceFiles } from './support/source-graph.ts';

/** The composition root, and the only files that may import it: the command and the package's entry. */
const ROOT = 'platform.ts';
const MAY_IMPORT_ROOT = new Set(['platform.ts', 'main.ts', 'index.ts']);

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
    expect(loops(graph)).toEqual([['a/one.ts', 'b/two.ts']]);
  });

  it('no import circle among the source files, within a domain or across domains', () => {
    // type-only imports count too: a circle of types is still two files that cannot be read alone
    const graph = new Map(
      files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]),
    );
    expect(loops(graph)).toEqual([]);
  });

  it("no domain's service reaches the buying path above it", () => {
    // the orchestrator (buying/) calls carts, checkouts, orders and payments; never the other way.
    // GraphQL (graphql/) is an API over them all, above the buying path as each domain's routes.ts is.
    const below = files.filter(
      (file) => !file.startsWith('buying/') && !file.startsWith('graphql/') && !MAY_IMPORT_ROOT.has(file),
    );
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

describe('file size', () => {
  /**
   * Issue 37: a file past a few screens stops reading as one thing (billing/service.ts grew to 1,301
   * lines, identity/service.ts to 924). A file over the limit is split along its seams, as catalog's
   * and identity's services hand each call to the file of its job.
   */
  const MAX_LINES = 800;
  const linesOf = (file: string) => fs.readFileSync(path.join(SRC, file), 'utf8').split('\n').length;

  it('counts the lines of a file (the check reads the files at all)', () => {
    expect(linesOf('platform.ts')).toBeGreaterThan(100);
  });

  it(`no platform source file is over ${MAX_LINES} lines, and billing's service under 600`, () => {
    const long = sourceFiles()
      .map((file) => ({ file, lines: linesOf(file) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
    expect(linesOf('billing/service.ts')).toBeLessThan(600);
  });
});
