import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

/** Runs a fixed statement on a database or a transaction, with its values in the order the statement takes them. */
export type FixedStatement<R> = (db: Kysely<Database>, parameters: readonly unknown[]) => Promise<QueryResult<R>>;

/**
 * A statement whose text never varies, only its values (a write's look-up of one row, its insert of
 * one): Kysely builds and compiles it once per database, whose dialect decides the text, and each
 * run passes its own values. Building and compiling a statement took more CPU than SQLite took to
 * run it. `build` gives the statement with any values: only their number and order count.
 */
export function fixedStatement<R>(build: (db: Kysely<Database>) => Compilable<R>): FixedStatement<R> {
  // By the database's adapter, which its transactions share.
  const compiled = new WeakMap<object, CompiledQuery<R>>();
  return (db, parameters) => {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (query === undefined) compiled.set(adapter, (query = build(db).compile()));
    if (parameters.length !== query.parameters.length)
      throw new Error(`${query.sql} takes ${query.parameters.length} values, not ${parameters.length}`);
    return db.executeQuery<R>({ ...query, parameters });
  };
}
