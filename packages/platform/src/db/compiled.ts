import { type Compilable, CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Tables } from './tables.ts';

type Executor = Kysely<Tables> | Transaction<Tables>;

/**
 * A statement of a hot path, built and compiled by Kysely once per database instead of on every call
 * (building and compiling a short UPDATE costs more than SQLite running it). `build` receives each
 * named value as a stand-in; the compiled text's parameters are matched back to the names, so the
 * values of a call go where Kysely put them, in whatever order its compiler chose.
 */
export class CompiledStatement<Values extends Record<string, unknown>> {
  private readonly compiled = new WeakMap<object, { sql: string; order: Array<keyof Values> }>();

  constructor(
    private readonly names: ReadonlyArray<keyof Values & string>,
    private readonly build: (db: Executor, values: Values) => Compilable,
  ) {}

  /** The statement for `db`'s dialect with `values` as its parameters. */
  query<Row = unknown>(db: Executor, values: Values): CompiledQuery<Row> {
    const { sql, order } = this.compiledFor(db);
    return CompiledQuery.raw(
      sql,
      order.map((name) => values[name]),
    ) as CompiledQuery<Row>;
  }

  private compiledFor(db: Executor) {
    const adapter = db.getExecutor().adapter;
    let compiled = this.compiled.get(adapter);
    if (!compiled) {
      const standIns = Object.fromEntries(this.names.map((name) => [name, standIn(name)])) as Values;
      const query = this.build(db, standIns).compile();
      const byStandIn = new Map(this.names.map((name) => [standIn(name), name]));
      const order = query.parameters.map((parameter) => {
        const name = byStandIn.get(parameter as string);
        if (name === undefined)
          throw new Error(`compiled statement has a parameter it was not given: ${parameter}`);
        return name;
      });
      compiled = { sql: query.sql, order };
      this.compiled.set(adapter, compiled);
    }
    return compiled;
  }
}

const standIn = (name: string) => `\u0000${name}\u0000`;
