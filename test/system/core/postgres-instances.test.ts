import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { freshDatabaseUrl, TEST_DIALECT } from '../../support/context.js';
import { buildDivision, buildUser } from '../../support/factories.js';
import { ROOT, runCli, startServer, type ServerProcess } from '../../support/processes.js';
import { createKey, importData } from '../../support/seed.js';

const DAY = 86_400_000;

function ddmmyyyy(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

describe.runIf(TEST_DIALECT === 'postgres')('several instances on one PostgreSQL database', () => {
  const env = { DATABASE_URL: freshDatabaseUrl() };
  let a: ServerProcess;
  let b: ServerProcess;
  let token: string;

  beforeAll(async () => {
    const users = Array.from({ length: 60 }, (_, i) => buildUser({ id: 1_000_100 + i, first_name: 'Controller', last_name: `No${i}` }));
    await importData(env, buildDivision({ users }));
    token = await createKey(env, 'staffing tool');
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    // beforeAll may have failed before either server was assigned.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('lets exactly one of 60 simultaneous conflicting creates, split across both instances, win', async () => {
    const date = ddmmyyyy(Date.now() + 3 * DAY);
    const attempts = Array.from({ length: 60 }, (_, i) =>
      fetch(`${(i % 2 ? a : b).url}/api/bookings/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        // Different users, overlapping periods on one position.
        body: JSON.stringify({
          cid: 1_000_100 + i,
          date,
          start_at: `${10 + (i % 3)}:00`,
          end_at: `${12 + (i % 3)}:30`,
          position: 'EKCH_TWR',
        }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { conflicts?: number[]; booking?: { id: number } } })),
    );
    const results = await Promise.all(attempts);
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const conflicts = results.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(59);
    for (const c of conflicts) expect(c.body.conflicts).toEqual([created[0]!.body.booking!.id]);

    const list = (await (await fetch(`${a.url}/api/bookings`)).json()) as unknown[];
    expect(list).toHaveLength(1);
  });

  it('shows a write acknowledged by one instance in the very next read from the other', async () => {
    const ids = async (s: ServerProcess) =>
      ((await (await fetch(`${s.url}/api/bookings`)).json()) as Array<{ id: number }>).map((x) => x.id);
    const before = await ids(b);
    expect(await ids(b)).toEqual(before); // b now returns this list from memory
    const date = ddmmyyyy(Date.now() + 5 * DAY);
    const auth = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 5; i++) {
      const created = await fetch(`${a.url}/api/bookings/create`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ cid: 1_000_100 + i, date, start_at: `0${i}:00`, end_at: `0${i}:30`, position: 'EKCH_TWR' }),
      });
      expect(created.status).toBe(201);
      const { booking } = (await created.json()) as { booking: { id: number } };
      expect(await ids(b)).toContain(booking.id);
      expect((await fetch(`${a.url}/api/bookings/${booking.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
      expect(await ids(b)).not.toContain(booking.id);
    }
  });

  it('never serves a list from before a commit that another client made, even with reads in flight', async () => {
    // Reads run continuously while another connection flips a flag; each read after a commit
    // must show it. (A change signal that moves before the commit is visible fails this often.)
    const date = ddmmyyyy(Date.now() + 9 * DAY);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${a.url}/api/bookings/create`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ cid: 1_000_150, date, start_at: '20:00', end_at: '21:00', position: 'EKCH_TWR' }),
    });
    const { booking } = (await created.json()) as { booking: { id: number } };
    const url = `${b.url}/api/bookings/${booking.id}`;
    const list = `${b.url}/api/bookings?cid=1000150`;
    const db = openDatabase(env.DATABASE_URL);
    let stop = false;
    const reader = async () => {
      while (!stop) await (await fetch(list, { headers: auth })).arrayBuffer();
    };
    const readers = [reader(), reader(), reader()];
    const stale: number[] = [];
    try {
      for (let i = 0; i < 150; i++) {
        const exam = i % 2;
        await db.kysely.updateTable('bookings').set({ exam }).where('id', '=', booking.id).execute();
        const [shown] = (await (await fetch(list, { headers: auth })).json()) as Array<{ exam: number }>;
        if (shown!.exam !== exam) stale.push(i);
      }
    } finally {
      stop = true;
      await Promise.all(readers);
      await db.close();
    }
    expect(stale).toEqual([]);
    expect((await fetch(url)).status).toBe(200);
  });

  it('rejects a key revoked through the CLI on both instances at once', async () => {
    const read = await createKey(env, 'bot', 'read-only');
    for (const s of [a, b])
      expect((await fetch(`${s.url}/api/users?include[]=allUsers`, { headers: { authorization: `Bearer ${read}` } })).status).toBe(200);
    expect(runCli(['apikey:revoke', 'bot'], env).code).toBe(0);
    for (const s of [a, b])
      expect((await fetch(`${s.url}/api/users?include[]=allUsers`, { headers: { authorization: `Bearer ${read}` } })).status).toBe(401);
  });
});

describe('start-up errors name the problem in one line', () => {
  it.each([
    ['postgres://root@127.0.0.1:1/test', /^sector: cannot reach the database: connection refused/],
    ['postgres://:5432/test', /^sector: DATABASE_URL is not a valid postgres:\/\/ URL/],
    ['postgres://root@127.0.0.1:5432/no_such_database', /^sector: database does not exist/],
    ['postgres://root@127.0.0.1:5432/test?schema=Bad-Name', /^sector: DATABASE_URL \?schema= must be/],
  ])('%s', (url, message) => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/server.js')], {
      env: { ...process.env, DATABASE_URL: url, PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});

describe.runIf(TEST_DIALECT === 'postgres')('PostgreSQL connection settings', () => {
  it('applies DB_STATEMENT_TIMEOUT_MS to every pooled connection', async () => {
    const { openDatabase } = await import('../../../src/core/db/connection.js');
    const { sql } = await import('kysely');
    const db = openDatabase(freshDatabaseUrl(), { poolSize: 3, statementTimeoutMs: 1234 });
    const shown = await Promise.all(
      Array.from({ length: 3 }, () => sql<{ statement_timeout: string }>`show statement_timeout`.execute(db.kysely)),
    );
    for (const r of shown) expect(r.rows[0]!.statement_timeout).toBe('1234ms');
    // A statement running past the timeout is cancelled instead of holding a connection.
    await expect(sql`select pg_sleep(3)`.execute(db.kysely)).rejects.toThrow(/statement timeout/);
    await db.close();
  });
});
