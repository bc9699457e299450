// Soak: minutes of mixed traffic against a real server process (reads, creates, updates,
// deletes and bad requests from concurrent clients), then: no 5xx at any point, every
// acknowledged write present as acknowledged, and resident memory flat after warm-up.
//
// SOAK_SECONDS (default 300) sets the length, SOAK_CONCURRENCY (default 12) the clients,
// SOAK_DATABASE_URL another database (default: a fresh SQLite file).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Pool } from 'undici';
import { expect, it } from 'vitest';
import { tempDir } from '../support/context.js';
import { ROOT, runCli } from '../support/processes.js';
import { createKey } from '../support/seed.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 12);
const WARMUP_SECONDS = Math.max(5, Math.round(SECONDS * 0.2));
const SAMPLE_EVERY_MS = 2000;
/** Live bookings each client keeps at most: the live list stays the same size however long the run. */
const LIVE_PER_CLIENT = 15;
const DAY = 86_400_000;

type Json = Record<string, unknown>;
interface ClientResult {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** Resident set size of a process in KiB, from /proc. */
function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** A small deterministic PRNG per client, so a run can be reasoned about. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

it(`serves ${SECONDS} s of mixed traffic with no 5xx, no lost writes and flat memory`, async () => {
  const dir = tempDir('sector-soak-');
  const env = { DATABASE_URL: process.env.SOAK_DATABASE_URL ?? `sqlite:${path.join(dir, 'sector.db')}` };
  expect(runCli(['seed:demo'], env).code).toBe(0);
  const editToken = await createKey(env, 'soak-edit');
  const readToken = await createKey(env, 'soak-read', 'read-only');

  const port = await freePort();
  const logFile = path.join(dir, 'server.log');
  const log = fs.openSync(logFile, 'w');
  // Request logging stays on (info) as in production; the log goes to a file in the run's folder.
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server.js')], {
    cwd: ROOT,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', RATE_LIMIT: '0' },
    stdio: ['ignore', log, log],
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });

  const request = async (
    method: string,
    p: string,
    opts: { token?: string; body?: string; type?: string; headers?: Record<string, string> } = {},
  ): Promise<ClientResult> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = opts.type ?? 'application/json';
    const res = await pool.request({ method: method, path: p, headers, ...(opts.body === undefined ? {} : { body: opts.body }) });
    return { status: res.statusCode, body: await res.body.text(), headers: res.headers };
  };

  try {
    for (let i = 0; ; i++) {
      try {
        if ((await request('GET', '/health')).status === 200) break;
      } catch {
        // not listening yet
      }
      if (i > 300) throw new Error(`server did not start:\n${fs.readFileSync(logFile, 'utf8')}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const users = (JSON.parse((await request('GET', '/api/users?include[]=allUsers', { token: readToken })).body) as Json[]).map(
      (u) => u.id as number,
    );
    const callsigns = (JSON.parse((await request('GET', '/api/positions')).body).data as Json[]).map((p) => p.callsign as string);
    const positionsEtag = (await request('GET', '/api/positions')).headers.etag as string;
    expect(users.length).toBeGreaterThan(100);

    const statuses = new Map<string, number>();
    const serverErrors: string[] = [];
    const count = (kind: string, a: ClientResult, what: string) => {
      statuses.set(`${kind} ${a.status}`, (statuses.get(`${kind} ${a.status}`) ?? 0) + 1);
      if (a.status >= 500 && serverErrors.length < 20) serverErrors.push(`${what} -> ${a.status} ${a.body.slice(0, 200)}`);
    };
    /** Every booking a client was told was written, as the response showed it. */
    const ledger = new Map<number, Json>();
    let nextSlot = 0;
    // Far enough ahead that no demo booking is in the way, one three-hour block per slot.
    const firstDay = Date.UTC(new Date().getUTCFullYear() + 1, 0, 1);
    const slot = (i: number) => {
      const day = new Date(firstDay + Math.floor(i / callsigns.length / 8) * DAY);
      return {
        position: callsigns[i % callsigns.length]!,
        date: `${day.getUTCDate()}/${day.getUTCMonth() + 1}/${day.getUTCFullYear()}`,
        start: (Math.floor(i / callsigns.length) % 8) * 3,
      };
    };

    const started = Date.now();
    const deadline = started + SECONDS * 1000;
    const samples: Array<{ t: number; rss: number }> = [];
    const sampler = setInterval(() => samples.push({ t: (Date.now() - started) / 1000, rss: rssKiB(child.pid!) }), SAMPLE_EVERY_MS);

    async function client(c: number): Promise<void> {
      const random = rng(c + 1);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
      const live: number[] = [];
      while (Date.now() < deadline) {
        const r = random();
        const token = random() < 0.5 ? readToken : undefined;
        if (r < 0.22) {
          const from = new Date(Date.now() + Math.floor(random() * 30 - 5) * DAY).toISOString().slice(0, 10);
          const q = random() < 0.5 ? `from=${from}&limit=50` : `callsign=${pick(callsigns)}`;
          count('list', await request('GET', `/api/bookings?${q}`, token ? { token } : {}), q);
        } else if (r < 0.26) {
          count('list-all', await request('GET', '/api/bookings', token ? { token } : {}), 'all');
        } else if (r < 0.34) {
          const id = live.length > 0 && random() < 0.7 ? pick(live) : 1 + Math.floor(random() * 200);
          count('get', await request('GET', `/api/bookings/${id}`, token ? { token } : {}), `id ${id}`);
        } else if (r < 0.44) {
          count(
            'positions',
            await request('GET', '/api/positions', random() < 0.5 ? { headers: { 'if-none-match': positionsEtag } } : {}),
            'positions',
          );
        } else if (r < 0.52) {
          const include = ['allUsers', 'endorsements', 'roles', 'training', 'name', 'email', 'divisions', 'activeAreas'].filter(
            () => random() < 0.4,
          );
          const q = include.map((i) => `include[]=${i}`).join('&') + (random() < 0.3 ? '&onlyAtcActive=true' : '');
          count('users', await request('GET', `/api/users?${q}`, { token: readToken }), q);
        } else if (r < 0.56) {
          const p = pick([
            '/api/roles',
            '/api/endorsements/masc',
            '/api/endorsements/training/solo',
            '/api/endorsements/training/s1',
            '/api/endorsements/examiner',
            '/api/endorsements/visiting',
          ]);
          count('deprecated', await request('GET', p, { token: readToken }), p);
        } else if (r < 0.72) {
          if (live.length >= LIVE_PER_CLIENT) {
            // At the cap, the client frees a slot instead: the live list does not grow.
            const id = live.shift()!;
            const a = await request('DELETE', `/api/bookings/${id}`, { token: editToken });
            count('delete', a, `delete ${id}`);
            if (a.status === 200) ledger.set(id, JSON.parse(a.body).booking);
            continue;
          }
          const s = slot(nextSlot++);
          const body = {
            cid: pick(users),
            date: s.date,
            start_at: `${s.start}:00`,
            end_at: `${s.start + 1}:30`,
            position: s.position,
            ...(random() < 0.3 ? { tag: pick([1, 2, 3]) } : {}),
          };
          const form = random() < 0.3;
          const a = await request('POST', '/api/bookings/create', {
            token: editToken,
            body: form
              ? new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString()
              : JSON.stringify(body),
            type: form ? 'application/x-www-form-urlencoded' : 'application/json',
          });
          count('create', a, JSON.stringify(body));
          if (a.status === 201) {
            const booking = JSON.parse(a.body).booking as Json;
            ledger.set(booking.id as number, booking);
            live.push(booking.id as number);
          }
        } else if (r < 0.84) {
          if (live.length === 0) continue;
          const id = pick(live);
          const start = Number(String(ledger.get(id)!.time_start).slice(11, 13));
          const patch = {
            end_at: `${start + 1 + Math.floor(random() * 2)}:${String(Math.floor(random() * 4) * 15).padStart(2, '0')}`,
            tag: pick([1, 2, 3, null]),
          };
          const a = await request('PATCH', `/api/bookings/${id}`, { token: editToken, body: JSON.stringify(patch) });
          count('update', a, `${id} ${JSON.stringify(patch)}`);
          if (a.status === 200) ledger.set(id, JSON.parse(a.body).booking);
        } else if (r < 0.88) {
          if (live.length === 0) continue;
          const id = live.splice(Math.floor(random() * live.length), 1)[0]!;
          const a = await request('DELETE', `/api/bookings/${id}`, { token: editToken });
          count('delete', a, `delete ${id}`);
          if (a.status === 200) ledger.set(id, JSON.parse(a.body).booking);
        } else {
          const bad = pick([
            () => request('POST', '/api/bookings/create', { token: editToken, body: '{"cid": 1,' }),
            () =>
              request('POST', '/api/bookings/create', {
                token: editToken,
                body: JSON.stringify({ cid: 'x', date: '31/02/2026', start_at: '25:00' }),
              }),
            () => request('POST', '/api/bookings/create', { token: readToken, body: '{}' }),
            () => request('POST', '/api/bookings/create', { token: editToken, body: JSON.stringify({ position: 'x'.repeat(70_000) }) }),
            () => request('GET', '/api/users?include[]=allUsers', { token: `${readToken}x` }),
            () => request('GET', '/api/users?include[]=everything', { token: readToken }),
            () => request('GET', '/api/no-such-thing'),
            () => request('DELETE', '/api/positions'),
            () => request('GET', '/api/bookings?from=yesterday'),
            () =>
              request('PATCH', `/api/bookings/${live[0] ?? 1}`, {
                token: editToken,
                body: JSON.stringify({ start_at: '10:00', end_at: '10:00' }),
              }),
          ]);
          count('bad', await bad(), 'bad request');
        }
      }
    }

    await Promise.all(Array.from({ length: CONCURRENCY }, (_, c) => client(c)));
    clearInterval(sampler);
    const elapsed = (Date.now() - started) / 1000;

    // Every acknowledged write, as acknowledged (deleted ones included, with deleted: 1).
    const lost: string[] = [];
    const ids = [...ledger.keys()];
    for (let i = 0; i < ids.length; i += CONCURRENCY) {
      await Promise.all(
        ids.slice(i, i + CONCURRENCY).map(async (id) => {
          const a = await request('GET', `/api/bookings/${id}`, { token: readToken });
          if (a.status !== 200 || JSON.stringify(JSON.parse(a.body)) !== JSON.stringify(ledger.get(id)))
            lost.push(`${id}: ${a.status} ${a.body.slice(0, 200)}`);
        }),
      );
    }

    const warm = samples.filter((s) => s.t >= WARMUP_SECONDS);
    const window = Math.max(3, Math.round(warm.length / 10));
    const baseline = median(warm.slice(0, window).map((s) => s.rss));
    const final = median(warm.slice(-window).map((s) => s.rss));
    const growth = (final - baseline) / baseline;
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    const report = {
      seconds: Math.round(elapsed),
      clients: CONCURRENCY,
      requests: total,
      perSecond: Math.round(total / elapsed),
      statuses: Object.fromEntries([...statuses].sort()),
      serverErrors: serverErrors.length,
      ledger: ledger.size,
      lostWrites: lost.length,
      rssKiB: {
        warmupEndsAtSecond: WARMUP_SECONDS,
        baseline,
        final,
        max: Math.max(...samples.map((s) => s.rss)),
        growthPercent: Math.round(growth * 1000) / 10,
      },
    };
    console.log(`SOAK REPORT ${JSON.stringify(report, null, 2)}`);

    expect(serverErrors).toEqual([]);
    expect(lost).toEqual([]);
    expect(warm.length).toBeGreaterThanOrEqual(2);
    expect(growth).toBeLessThan(0.1);
    // The mix reached every kind of response it was meant to.
    for (const kind of ['list 200', 'get 200', 'positions 304', 'users 200', 'deprecated 200', 'create 201', 'update 200', 'delete 200']) {
      expect(statuses.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    fs.closeSync(log);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
