// Idempotency-Key across processes (contract §5, "Batches and retries"): the database decides
// between concurrent repeats sent to two instances; the stored response outlives a restart, and a
// server killed after its commit but before its response leaves that response for the retry.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/core/db/connection.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { buildDivision, buildPosition, buildUser } from '../../support/factories.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { createKey, importData } from '../../support/seed.js';

const DAY = 86_400_000;
const CID = 1_000_100;

function dmy(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()}/${d.getUTCMonth() + 1}/${d.getUTCFullYear()}`;
}

interface ClientResult {
  status: number;
  replayed: string | null;
  retryAfter: string | null;
  body: string;
}

describe('Idempotency-Key across server processes', () => {
  const env = { DATABASE_URL: freshDatabaseUrl() };
  const servers: ServerProcess[] = [];
  let token: string;
  let db: Db;

  const start = async () => {
    const s = await startServer(env);
    servers.push(s);
    return s;
  };
  const post = async (server: ServerProcess, route: 'create' | 'batch', body: unknown, key: string): Promise<ClientResult> => {
    const r = await fetch(`${server.url}/api/bookings/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    return {
      status: r.status,
      replayed: r.headers.get('idempotent-replayed'),
      retryAfter: r.headers.get('retry-after'),
      body: await r.text(),
    };
  };
  const bookingsOn = async (date: string): Promise<number> => {
    const [d, m, y] = date.split('/').map(Number);
    const from = Date.UTC(y!, m! - 1, d!);
    const rows = await db.kysely
      .selectFrom('bookings')
      .select('id')
      .where('time_start', '>=', from)
      .where('time_start', '<', from + DAY)
      .execute();
    return rows.length;
  };

  beforeAll(async () => {
    const users = [buildUser({ id: CID, first_name: 'Staffing', last_name: 'Tool', rating: 'C1' })];
    await importData(env, buildDivision({ users, positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_DEL')] }));
    token = await createKey(env, 'staffing tool');
    db = openDatabase(env.DATABASE_URL);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop().catch(() => null)));
    // beforeAll may have failed before the database was opened.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    await db?.close();
  });

  it('makes one booking of 20 simultaneous repeats of one keyed create, split across two instances', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const date = dmy(Date.now() + 3 * DAY);
    const body = { cid: CID, date, start_at: '10:00', end_at: '12:00', position: 'EKCH_TWR' };
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i % 2 ? a! : b!, 'create', body, 'twenty-repeats')));

    const made = responses.filter((r) => r.status === 201 && r.replayed === null);
    expect(made).toHaveLength(1);
    for (const r of responses) {
      // Every other repeat got the same response as the first (once stored), or was told to come back in a second.
      if (r.status === 201) expect(r.body).toBe(made[0]!.body);
      else expect([r.status, r.retryAfter]).toEqual([409, '1']);
    }
    expect(await bookingsOn(date)).toBe(1);

    const late = await post(b!, 'create', body, 'twenty-repeats');
    expect([late.status, late.replayed, late.body]).toEqual([201, 'true', made[0]!.body]);
  });

  it('replays the stored response after the server that made it restarts', async () => {
    const first = await start();
    const date = dmy(Date.now() + 4 * DAY);
    const roster = { bookings: [{ cid: CID, date, start_at: '08:00', end_at: '10:00', position: 'EKCH_DEL' }] };
    const made = await post(first, 'batch', roster, 'before-restart');
    expect(made.status).toBe(201);
    expect(await first.stop()).toBe(0);

    const next = await start();
    const again = await post(next, 'batch', roster, 'before-restart');
    expect([again.status, again.replayed, again.body]).toEqual([201, 'true', made.body]);
    expect(await bookingsOn(date)).toBe(1);
  });

  it('responds to the retry after a server was killed between its commit and its response, with one set of bookings', async () => {
    const doomed = await start();
    const date = dmy(Date.now() + 5 * DAY);
    // A roster of 100: the commit, then the response of 100 bookings.
    const roster = {
      bookings: Array.from({ length: 100 }, (_, i) => ({
        cid: CID,
        date,
        start_at: `${String(Math.floor((i * 14) / 60)).padStart(2, '0')}:${String((i * 14) % 60).padStart(2, '0')}`,
        end_at: `${String(Math.floor((i * 14 + 13) / 60)).padStart(2, '0')}:${String((i * 14 + 13) % 60).padStart(2, '0')}`,
        position: 'EKCH_TWR',
      })),
    };
    let settled: ClientResult | null | undefined;
    const lost = post(doomed, 'batch', roster, 'killed-after-commit')
      .catch(() => null)
      .then((a) => (settled = a));
    // Killed the moment its bookings are committed (visible to another connection). Every look, one
    // statement and so one snapshot, finds the response stored as soon as any booking is there.
    const [d, m, y] = date.split('/').map(Number);
    const from = Date.UTC(y!, m! - 1, d!);
    for (;;) {
      const { rows } = await sql<{ n: number | string; state: string | null }>`
        SELECT (SELECT count(*) FROM bookings WHERE time_start >= ${from} AND time_start < ${from + DAY}) AS n,
               (SELECT state FROM idempotency_keys WHERE key = 'killed-after-commit') AS state`.execute(db.kysely);
      if (Number(rows[0]!.n) > 0) {
        expect(rows[0]!.state).toBe('done');
        break;
      }
      // A response without a booking: nothing to kill after (a failure of the set-up, not of the retry).
      if (settled !== undefined) throw new Error(`the batch got a response without a booking: ${JSON.stringify(settled)}`);
      await new Promise((r) => setTimeout(r, 1));
    }
    await doomed.stop('SIGKILL');
    await lost;

    const next = await start();
    const retry = await post(next, 'batch', roster, 'killed-after-commit');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect((JSON.parse(retry.body) as { bookings: unknown[] }).bookings).toHaveLength(100);
    expect(await bookingsOn(date)).toBe(100);
  });
});
