import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, loops, SRC, sourceFiles } from './support/source-graph.ts';

/** Folders every domain stands on: they may be imported by any, and import no domain themselves. */
const BELOW_EVERYONE = new Set(['shared', 'db', 'http']);
/** The storage assembly: db/ gathers each domain's declared tables and migrations, and nothing else. */
const ASSEMBLY = new Set(['db/tables.ts', 'db/migrations.ts']);

/**
 * Queries a folder may run on a table another folder declares, each with its reason. A migration is
 * history: it ran as written, under its global name, so the one that altered a table before its owner
 * had a folder stays where it is. Members reads identities joined to members (a member list filters
 * and sorts on login email, status and profile in one query); it writes them through identity.
 */
const EXCEPTIONS: Array<{ file: string; table: string; reads?: true; reason: string }> = [
  {
    file: 'db/core-migrations.ts',
    table: 'settings',
    reason: 'migration 0001 made the first tables before domains had folders',
  },
  {
    file: 'db/core-migrations.ts',
    table: 'oauth_clients',
    reason: 'migration 0001 made the first tables before domains had folders',
  },
  {
    file: 'db/core-migrations.ts',
    table: 'refresh_tokens',
    reason: 'migration 0001 made the first tables before domains had folders',
  },
  {
    file: 'billing/migrations.ts',
    table: 'order_payments',
    reason: "migration 0028 added a payment's capture, void and offline columns with billing's tables",
  },
  {
    file: 'members/query.ts',
    table: 'identities',
    reads: true,
    reason: 'the member list filters and sorts on identity columns in one joined query',
  },
  {
    file: 'members/service.ts',
    table: 'identities',
    reads: true,
    reason: 'a member is read with its identity in one joined query',
  },
];

const folderOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : '');

/** Each table and the folder whose `tables.ts` declares it (a key of an exported `...Tables` interface). */
export function tableOwners(declarations: Record<string, string>): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [file, text] of Object.entries(declarations)) {
    for (const block of text.matchAll(/export interface \w+Tables\b[^{]*\{([\s\S]*?)\n\}/g)) {
      for (const key of block[1]!.matchAll(/\n {2}([a-z_]+)\??:/g)) owners.set(key[1]!, folderOf(file));
    }
  }
  return owners;
}

/** A table a file's queries name: `write` for inserts, updates, deletes and schema changes. */
interface TableUse {
  table: string;
  write: boolean;
}

const WRITES = ['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto'];
const SCHEMA = ['createTable', 'alterTable', 'dropTable'];
const READS = ['selectFrom', 'innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'selectAll', 'table'];

/**
 * The tables `text` queries: Kysely's builders named with a table (`selectFrom('orders as o')`,
 * `updateTable('orders')`, `.on('orders')` of an index), a `ref('table.column')`, and a declared
 * table's name in raw `sql` text.
 */
export function tablesUsed(text: string, declared: ReadonlySet<string>): TableUse[] {
  const uses: TableUse[] = [];
  const builder = new RegExp(
    `\\.(${[...WRITES, ...SCHEMA, ...READS, 'on'].join('|')})\\(\\s*['"\`]([a-z_]+)`,
    'g',
  );
  for (const [, method, table] of text.matchAll(builder)) {
    if (method === 'on' || method === 'selectAll' || method === 'table') {
      if (declared.has(table!)) uses.push({ table: table!, write: false });
      continue;
    }
    uses.push({ table: table!, write: WRITES.includes(method!) || SCHEMA.includes(method!) });
  }
  for (const [, table] of text.matchAll(/\bref(?:\(\s*|:\s*)['"`]([a-z_]+)\.[a-z_*]+['"`]/g))
    if (declared.has(table!)) uses.push({ table: table!, write: false });
  for (const [, body] of text.matchAll(/\bsql(?:<[^>`]*>)?`([^`]*)`/g)) {
    for (const [, word] of body!.matchAll(/(?<![\w.-])([a-z_]+)(?![\w-])/g)) {
      if (declared.has(word!)) uses.push({ table: word!, write: /\b(insert|update|delete)\b/i.test(body!) });
    }
  }
  return uses;
}

/** `file table (owner)` for each query a file runs on a table its folder does not declare. */
function trespasses(files: string[], owners: Map<string, string>): string[] {
  const declared = new Set(owners.keys());
  const found = new Set<string>();
  for (const file of files) {
    if (file.endsWith('/tables.ts') || file === 'db/tables.ts') continue;
    const text = fs.readFileSync(path.join(SRC, file), 'utf8');
    for (const use of tablesUsed(text, declared)) {
      const owner = owners.get(use.table);
      if (owner === folderOf(file)) continue;
      const excused = EXCEPTIONS.some(
        (exception) =>
          exception.file === file && exception.table === use.table && (!exception.reads || !use.write),
      );
      if (!excused)
        found.add(`${file} ${use.write ? 'writes' : 'reads'} ${use.table} (${owner ?? 'declared nowhere'})`);
    }
  }
  return [...found].sort();
}

/**
 * Which domain folders each domain folder imports. A folder's `routes.ts` is the HTTP layer above
 * every domain (it translates, as platform.ts composes), so its imports are not the domain's; the
 * folders below everyone are left out, being no part of any loop.
 */
export function folderGraph(files: string[], imports: (file: string) => string[]): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = folderOf(file);
    if (!from || BELOW_EVERYONE.has(from) || file.endsWith('/routes.ts') || file.endsWith('-routes.ts'))
      continue;
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const target of imports(file)) {
      const to = folderOf(target);
      if (to && to !== from && !BELOW_EVERYONE.has(to)) targets.add(to);
    }
  }
  return new Map([...graph].map(([folder, targets]) => [folder, [...targets].sort()]));
}

/**
 * Issue 37: each domain owns its tables (the folder whose `tables.ts` declares a table is the only one
 * that queries it; the others ask that domain), and the domains import one another in one direction,
 * folder by folder, types included, so each can be read and changed from below.
 */
describe('domain boundaries', () => {
  const files = sourceFiles();
  const owners = tableOwners(
    Object.fromEntries(
      files
        .filter((file) => file.endsWith('/tables.ts'))
        .map((file) => [file, fs.readFileSync(path.join(SRC, file), 'utf8')]),
    ),
  );

  it('reads which folder declares each table', () => {
    expect(owners.get('orders')).toBe('orders');
    expect(owners.get('order_payments')).toBe('payments');
    expect(owners.get('checkout_attempts')).toBe('checkouts');
    expect(owners.get('identities')).toBe('identity');
    expect(
      tableOwners({ 'a/tables.ts': 'export interface ATables {\n  one: Row;\n  two?: { x: string };\n}' }),
    ).toEqual(
      new Map([
        ['one', 'a'],
        ['two', 'a'],
      ]),
    );
  });

  it('finds the tables a query names, in builders, references and raw sql', () => {
    const declared = new Set(['orders', 'order_payments', 'identities']);
    const text = [
      "trx.updateTable('orders').set({})",
      "db.selectFrom('order_payments as p').innerJoin('identities', 'p.id', 'identities.id')",
      "sql.ref('identities.profile'); const permission = 'orders.read';",
      'sql`update orders set x = 1`',
      "sql`select 1 where source = 'store-orders'`",
    ].join('\n');
    expect(tablesUsed(text, declared)).toEqual([
      { table: 'orders', write: true },
      { table: 'order_payments', write: false },
      { table: 'identities', write: false },
      { table: 'identities', write: false },
      { table: 'orders', write: true },
    ]);
  });

  it('no file queries a table outside the folder that declares it, but the exceptions listed', () => {
    expect(trespasses(files, owners)).toEqual([]);
  });

  it('finds a loop of folders where there is one', () => {
    const graph = folderGraph(
      ['a/one.ts', 'b/two.ts', 'b/routes.ts', 'c/three.ts', 'shared/ids.ts'],
      (file) =>
        (
          ({
            'a/one.ts': ['b/two.ts', 'shared/ids.ts'],
            'b/two.ts': ['a/one.ts'],
            'b/routes.ts': ['c/three.ts'],
            'c/three.ts': ['b/routes.ts'],
          }) as Record<string, string[]>
        )[file] ?? [],
    );
    expect(loops(graph)).toEqual([['a', 'b']]);
  });

  it('no loop among the domain folders: they import one another one way only', () => {
    expect(loops(folderGraph(files, importsOf))).toEqual([]);
  });

  it('the folders below everyone import no domain (db/ gathers only their tables and migrations)', () => {
    const upward = files
      .filter((file) => BELOW_EVERYONE.has(folderOf(file)) && !ASSEMBLY.has(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => folderOf(target) && !BELOW_EVERYONE.has(folderOf(target)))
          .map((target) => `${file} -> ${target}`),
      );
    expect(upward).toEqual([]);
  });
});
