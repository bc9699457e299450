// SQLite statements stay prepared by their text (src/core/db/connection.ts): a kept statement must still
// answer for the schema as it is now, texts beyond the kept number must still run, and the ones
// evicted are those run least recently (a statement run all the time stays prepared).
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../../src/core/db/connection.js';
import { TEST_DIALECT, tempDir } from '../../support/context.js';

const open: Db[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});

describe.runIf(TEST_DIALECT === 'sqlite')('SQLite statements kept prepared', () => {
  it('see a table another connection changed since they were prepared', async () => {
    const file = path.join(tempDir(), 'kept.db');
    const db = openDatabase(`sqlite:${file}`);
    open.push(db);
    await sql`create table notes (id integer primary key, body text not null)`.execute(db.kysely);
    await sql`insert into notes (body) values ('first')`.execute(db.kysely);
    const read = async () => (await sql<Record<string, unknown>>`select * from notes order by id`.execute(db.kysely)).rows;
    expect(await read()).toEqual([{ id: 1, body: 'first' }]);

    // Another process's migration, say: a new column, then the table made again with other columns.
    const other = new SQLite(file);
    other.exec("alter table notes add column author text not null default 'nobody'");
    expect(await read()).toEqual([{ id: 1, body: 'first', author: 'nobody' }]);
    other.exec("drop table notes; create table notes (id integer primary key, title text); insert into notes (title) values ('new')");
    other.close();
    expect(await read()).toEqual([{ id: 1, title: 'new' }]);
  });

  it('run many more different texts than are kept, long ones among them, and the first ones again', async () => {
    const db = openDatabase('sqlite::memory:');
    open.push(db);
    // Every tenth is longer than a kept text may be (many rows' values at once, in real use).
    const texts = Array.from({ length: 1_000 }, (_, i) => `select ${i} as n, ? as p${i % 10 === 0 ? ` -- ${'x'.repeat(3_000)}` : ''}`);
    for (const [i, text] of texts.entries()) {
      const { rows } = await db.kysely.executeQuery(CompiledQuery.raw(text, [`p${i}`]));
      expect(rows).toEqual([{ n: i, p: `p${i}` }]);
    }
    for (const n of [0, 1]) {
      const again = await db.kysely.executeQuery(CompiledQuery.raw(texts[n]!, ['again']));
      expect(again.rows).toEqual([{ n, p: 'again' }]);
    }
  });

  it('keep a statement run between every other one prepared, however many other texts pass', async () => {
    const db = openDatabase('sqlite::memory:');
    open.push(db);
    const prepare = vi.spyOn(SQLite.prototype, 'prepare');
    try {
      const hot = 'select ? as hot';
      for (let i = 0; i < 300; i++) {
        await db.kysely.executeQuery(CompiledQuery.raw(hot, [i]));
        await db.kysely.executeQuery(CompiledQuery.raw(`select ${i} as cold`));
      }
      expect(prepare.mock.calls.filter(([text]) => text === hot)).toHaveLength(1);
      // The cold texts, each run once, were prepared once each.
      expect(prepare.mock.calls.filter(([text]) => text.endsWith(' as cold'))).toHaveLength(300);
    } finally {
      prepare.mockRestore();
    }
  });
});
