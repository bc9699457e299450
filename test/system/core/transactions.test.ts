// Every write is one transaction of its own. Those the database refuses for reasons of timing only
// are run again: a PostgreSQL deadlock, or (SQLite) another process holding the write lock, which
// is waited for between attempts so the rest of the server keeps responding.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/core/db/connection.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { transaction } from '../../../src/core/db/transaction.js';
import { freshDatabaseUrl, TEST_DIALECT, tempDir } from '../../support/context.js';

/** A users row as stored, written straight into the table: these tests are below the import. */
const userRow = (id: number) => ({
  id,
  rating: 1,
  first_name: 'User',
  last_name: String(id),
  email: null,
  region: null,
  division: null,
  subdivision: null,
  created_at: 0,
  updated_at: 0,
});

const open: Db[] = [];
async function database(url = freshDatabaseUrl(), onSql?: (sql: string) => void): Promise<Db> {
  const db = openDatabase(url, onSql ? { onQuery: (e) => onSql(e.query.sql) } : {});
  open.push(db);
  await migrateToLatest(db);
  await db.kysely
    .insertInto('users')
    .values([userRow(1), userRow(2)])
    .execute();
  return db;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});

describe.runIf(TEST_DIALECT === 'postgres')('on PostgreSQL', () => {
  it('runs a transaction again when PostgreSQL aborts it as a deadlock, so both writers succeed', async () => {
    const db = await database();
    // Two writers lock the same two rows in opposite orders: a deadlock every time.
    let release!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const attempts = { a: 0, b: 0 };
    const writer = (name: 'a' | 'b', first: number, second: number) =>
      transaction(db, async (trx) => {
        attempts[name]++;
        await trx.updateTable('users').set({ last_name: name }).where('id', '=', first).execute();
        if (attempts[name] === 1) {
          if (++holding === 2) release();
          await bothHoldOne;
        }
        await trx.updateTable('users').set({ last_name: name }).where('id', '=', second).execute();
        return name;
      });
    expect(await Promise.all([writer('a', 1, 2), writer('b', 2, 1)])).toEqual(['a', 'b']);
    // One of them was aborted and ran again.
    expect(attempts.a + attempts.b).toBe(3);
    const names = (await db.kysely.selectFrom('users').select('last_name').orderBy('id').execute()).map((u) => u.last_name);
    expect(names[0]).toBe(names[1]);
  });
});

describe.runIf(TEST_DIALECT === 'sqlite')('on SQLite', () => {
  it('commits each write in a transaction of its own: a failing one undoes its own changes and no other write', async () => {
    const statements: string[] = [];
    const db = await database(undefined, (sql) => statements.push(sql));
    statements.length = 0;
    const add = (id: number, fail: boolean) =>
      transaction(db, async (trx) => {
        await trx.insertInto('users').values(userRow(id)).execute();
        if (fail) throw new Error(`write ${id} refused`);
        return id;
      });
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => add(100 + i, i === 4)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      100,
      101,
      102,
      103,
      'write 104 refused',
      105,
      106,
      107,
      108,
      109,
    ]);
    expect(statements.filter((sql) => /^begin immediate$/i.test(sql.trim()))).toHaveLength(10);
    expect(statements.filter((sql) => /^commit$/i.test(sql.trim()))).toHaveLength(9);
    expect(statements.filter((sql) => /^rollback$/i.test(sql.trim()))).toHaveLength(1);
    const ids = (await db.kysely.selectFrom('users').select('id').where('id', '>=', 100).orderBy('id').execute()).map((u) => u.id);
    expect(ids).toEqual([100, 101, 102, 103, 105, 106, 107, 108, 109]);
  });

  it('waits for a write lock held by another process between attempts, responding to reads meanwhile', async () => {
    const file = path.join(tempDir(), 'sector.db');
    const db = await database(`sqlite:${file}`);
    const other = new SQLite(file);
    other.exec('BEGIN IMMEDIATE');
    const order: string[] = [];
    const write = transaction(db, (trx) => trx.updateTable('users').set({ last_name: 'written' }).where('id', '=', 1).execute()).then(
      () => {
        order.push('write');
      },
    );
    // Reads go on while the write waits for the lock, instead of queueing behind a blocked thread.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      await db.kysely.selectFrom('users').select('id').execute();
      order.push('read');
    }
    other.exec('COMMIT');
    other.close();
    await write;
    expect(order).toEqual(['read', 'read', 'read', 'write']);
    expect((await db.kysely.selectFrom('users').select('last_name').where('id', '=', 1).executeTakeFirstOrThrow()).last_name).toBe(
      'written',
    );
  });
});
