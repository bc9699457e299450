// Shared set-up of the network sync tests: a division, a key, a server pointed at a stand-in.
import { expect } from 'vitest';
import { freshDatabaseUrl } from './context.js';
import { buildDivision, buildPosition, buildUser } from './factories.js';
import { runCliAsync } from './processes.js';
import { createKey, importData } from './seed.js';

export const NETWORK_KEY = 'division-key-3f9a2c';
export const DAY = 86_400_000;

export const DIVISION_FILE = buildDivision({
  users: [
    buildUser({ id: 1_200_001, first_name: 'Astrid', last_name: 'Holm', subdivision: 'SCA' }),
    buildUser({ id: 1_200_002, first_name: 'Bo', last_name: 'Lund', rating: 'S1', subdivision: 'SCA' }),
  ],
  positions: [
    buildPosition('EKCH_TWR'),
    buildPosition('EKCH_APP'),
    buildPosition('EKDK_CTR'),
    // The network takes no ATIS bookings: it refuses this callsign.
    { callsign: 'EKCH_ATIS', name: 'Kastrup ATIS', frequency: '122.755', area: 'Denmark', rating: 'S1' },
  ],
});

/** A fresh database with the division imported and an edit key; env for the server and CLI. */
export async function prepareDivision(networkUrl: string, extra: Record<string, string> = {}, data: unknown = DIVISION_FILE) {
  const env: Record<string, string> = {
    DATABASE_URL: freshDatabaseUrl(),
    DIVISION: 'EUD',
    SUBDIVISIONS: 'SCA',
    NETWORK_BOOKINGS_URL: networkUrl,
    NETWORK_BOOKINGS_KEY: NETWORK_KEY,
    NETWORK_RETRY_BASE_MS: '100',
    NETWORK_TIMEOUT_MS: '2000',
    ...extra,
  };
  await importData(env, data);
  return { env, token: await createKey(env, 'staffing') };
}

/** d/m/Y of a day from now. */
export function dateIn(days: number): string {
  const d = new Date(Date.now() + days * DAY);
  return `${d.getUTCDate()}/${d.getUTCMonth() + 1}/${d.getUTCFullYear()}`;
}

/** Y-m-d of a day from now. */
export function ymdIn(days: number): string {
  return new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
}

export interface FullBooking {
  id: number;
  network_booking: string | null;
  callsign: string;
  time_start: string;
  time_end: string;
  updated_at: string;
  deleted: number;
  training: number;
  exam: number;
  event: number;
}

export function api(baseUrl: string, token: string) {
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as { booking: FullBooking; message?: string } };
  };
  return {
    create: async (body: Record<string, unknown>) => {
      const r = await call('POST', '/api/bookings/create', body);
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      return r.json.booking;
    },
    update: async (id: number, body: Record<string, unknown>) => {
      const r = await call('PATCH', `/api/bookings/${id}`, body);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return r.json.booking;
    },
    remove: async (id: number) => {
      const r = await call('DELETE', `/api/bookings/${id}`);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return r.json.booking;
    },
    get: async (id: number) => {
      const res = await fetch(`${baseUrl}/api/bookings/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as FullBooking;
    },
  };
}

/** Polls until check returns a value (not undefined/false) or the time is up. */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface StatusEntry {
  booking_id: number;
  callsign: string | null;
  status: 'pending' | 'refused';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  in_progress: boolean;
}

export async function networkStatus(env: Record<string, string>): Promise<StatusEntry[]> {
  const r = await runCliAsync(['network:status', '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as StatusEntry[];
}

/** The server's JSON log lines at or above a pino level (40 warn, 50 error). */
export function logLines(logs: string, minLevel: number): Array<Record<string, unknown>> {
  return logs
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => Number(l.level) >= minLevel);
}
