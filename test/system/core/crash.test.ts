// Crash safety on SQLite: a server killed with SIGKILL in the middle of a stream of writes keeps
// every write it acknowledged, with the acknowledged values, and its database file stays sound.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECT, tempDir } from '../../support/context.js';
import { buildUser, SCANDINAVIA } from '../../support/factories.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { createKey, importData } from '../../support/seed.js';

const POSITIONS = Array.from({ length: 20 }, (_, i) => `ESCR${String(i).padStart(2, '0')}_TWR`);
const USERS = [1000001, 1000002, 1000003];
const WORKERS = 8;
const KILL_AFTER_ACKS = 150;
const DAY = 86_400_000;

const division = {
  areas: ['Sweden'],
  users: USERS.map((id) =>
    buildUser({
      id,
      email: `${id}@example.org`,
      first_name: 'Crash',
      last_name: `Tester ${id}`,
      ...SCANDINAVIA,
      atc_active_areas: { Sweden: true },
    }),
  ),
  positions: POSITIONS.map((callsign, i) => ({
    callsign,
    name: `Crash Tower ${i}`,
    frequency: `118.${String(100 + i * 5).padStart(3, '0')}`,
    area: 'Sweden',
    rating: 'S1',
    required_facility: null,
  })),
};

interface Booking {
  id: number;
  time_end: string;
  training: number;
  exam: number;
  event: number;
  deleted: number;
  [field: string]: unknown;
}

/** What an unacknowledged write would have left behind, had it landed before the kill. */
type Attempt = { kind: 'update'; time_end: string; flags: [number, number, number] } | { kind: 'delete' };

const pad = (n: number) => String(n).padStart(2, '0');
const FLAGS: Record<string, [number, number, number]> = { '1': [1, 0, 0], '2': [0, 1, 0], '3': [0, 0, 1], '': [0, 0, 0] };

/** Slot i: its own position, day and three-hour block, so creates never conflict and updates stay inside. */
function slot(i: number, today: number) {
  const day = new Date(today + (2 + Math.floor(i / POSITIONS.length / 6)) * DAY);
  const startHour = 2 + (Math.floor(i / POSITIONS.length) % 6) * 3;
  return {
    position: POSITIONS[i % POSITIONS.length]!,
    date: `${day.getUTCDate()}/${day.getUTCMonth() + 1}/${day.getUTCFullYear()}`,
    ymd: `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`,
    startHour,
  };
}

describe.runIf(TEST_DIALECT === 'sqlite')('crash safety', () => {
  it.each(['FULL', 'NORMAL'])('keeps every acknowledged write through a SIGKILL mid-stream (synchronous=%s)', async (synchronous) => {
    const file = path.join(tempDir('sector-crash-'), 'sector.db');
    const env = { DATABASE_URL: `sqlite:${file}`, SQLITE_SYNCHRONOUS: synchronous };
    await importData(env, division);
    const token = await createKey(env, 'crash');
    const headers = { authorization: `Bearer ${token}` };

    const server: ServerProcess = await startServer(env);
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const acknowledged = new Map<number, Booking>();
    const uncertain = new Map<number, Attempt>();
    let acks = 0;
    let next = 0;
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;

    const send = async (method: string, url: string, body?: unknown): Promise<{ status: number; json: { booking: Booking } }> => {
      inFlight++;
      try {
        const json = body === undefined ? {} : { body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } };
        const res = await fetch(`${server.url}${url}`, { method, headers, ...json });
        return { status: res.status, json: (await res.json()) as { booking: Booking } };
      } finally {
        inFlight--;
      }
    };
    const acknowledge = (booking: Booking) => {
      acknowledged.set(booking.id, booking);
      if (++acks === KILL_AFTER_ACKS) {
        // Synchronously, while the other workers' requests are on the wire.
        inFlightAtKill = inFlight;
        killed = true;
        void server.stop('SIGKILL');
      }
    };

    async function worker(w: number): Promise<void> {
      const own: number[] = [];
      for (let step = 0; !killed; step++) {
        const id = own[step % Math.max(own.length, 1)];
        const action = own.length === 0 || step % 3 === 0 ? 'create' : step % 7 === 0 ? 'delete' : 'update';
        try {
          if (action === 'create') {
            const s = slot(next++, today);
            const tag = ['', '1', '2', '3'][step % 4]!;
            const res = await send('POST', '/api/bookings/create', {
              cid: USERS[w % USERS.length],
              date: s.date,
              start_at: `${s.startHour}:00`,
              end_at: `${s.startHour + 1}:00`,
              position: s.position,
              tag,
            });
            expect(res.status).toBe(201);
            acknowledge(res.json.booking);
            own.push(res.json.booking.id);
          } else if (action === 'update') {
            const current = acknowledged.get(id!)!;
            const startHour = Number(String(current['time_start']).slice(11, 13));
            const endHour = startHour + 1 + (step % 2);
            const tag = ['', '1', '2', '3'][(step >> 1) % 4]!;
            uncertain.set(id!, {
              kind: 'update',
              time_end: `${String(current['time_start']).slice(0, 10)} ${pad(endHour)}:${pad(step % 60)}:00`,
              flags: FLAGS[tag]!,
            });
            const res = await send('PATCH', `/api/bookings/${id}`, { end_at: `${endHour}:${pad(step % 60)}`, tag });
            expect(res.status).toBe(200);
            uncertain.delete(id!);
            acknowledge(res.json.booking);
          } else {
            uncertain.set(id!, { kind: 'delete' });
            const res = await send('DELETE', `/api/bookings/${id}`);
            expect(res.status).toBe(200);
            uncertain.delete(id!);
            acknowledge(res.json.booking);
            own.splice(own.indexOf(id!), 1);
          }
        } catch (err) {
          // `killed` is set by the test's kill step while this request is in flight.
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
          if (killed) return; // cut off by the kill: this write was never acknowledged
          throw err;
        }
      }
    }

    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    expect(killed).toBe(true);
    // The kill really landed mid-stream.
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(fs.existsSync(`${file}-wal`)).toBe(true);

    const restarted = await startServer(env);
    try {
      const ids = [...acknowledged.keys()];
      expect(ids.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS / 3);
      for (const id of ids) {
        const res = await fetch(`${restarted.url}/api/bookings/${id}`, { headers });
        expect(res.status, `booking ${id}`).toBe(200);
        const stored = (await res.json()) as Booking;
        const attempt = uncertain.get(id);
        const acked = acknowledged.get(id)!;
        if (attempt === undefined) {
          expect(stored, `booking ${id} as acknowledged`).toEqual(acked);
        } else if (attempt.kind === 'delete') {
          expect({ ...stored, deleted: 0, updated_at: null }, `booking ${id} before or after its delete`).toEqual({
            ...acked,
            deleted: 0,
            updated_at: null,
          });
        } else {
          const landed = {
            ...acked,
            time_end: attempt.time_end,
            training: attempt.flags[0],
            exam: attempt.flags[1],
            event: attempt.flags[2],
            updated_at: stored.updated_at,
          };
          expect([acked, landed], `booking ${id} before or after its update`).toContainEqual(stored);
        }
      }
    } finally {
      expect(await restarted.stop('SIGTERM')).toBe(0);
    }

    const db = new SQLite(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const overlapping = db
        .prepare(
          `select count(*) from bookings a join bookings b on a.position_id = b.position_id and a.id < b.id
           where a.deleted = 0 and b.deleted = 0 and a.time_start < b.time_end and b.time_start < a.time_end`,
        )
        .pluck()
        .get();
      expect(overlapping).toBe(0);
    } finally {
      db.close();
    }
  });
});
