// `npm run demo` (docs/demo.md) as a process: the demo sign-in on loopback, and every way it must
// not become a way in on a real site (contract, details of §20–§25): only requests made on this
// computer, only on loopback addresses, only on its own database, and no demo routes in a normal start.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, TEST_DIALECT } from '../../support/context.js';
import { tableRows } from '../../support/db-state.js';
import { buildDivision } from '../../support/factories.js';
import { ROOT, startServer, type ServerProcess } from '../../support/processes.js';
import { importData } from '../../support/seed.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request as any client may send it, Host and Forwarded headers included (fetch would not let a test set Host). */
function send(base: string, method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method, path: url, headers: { host: `${hostname}:${port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const cookiesOf = (a: Answer) => (a.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).filter((c) => !c.endsWith('='));
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function runDemo(env: Record<string, string>) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/server.js'), '--demo'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT: '0', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stderr: r.stderr };
}

describe.runIf(TEST_DIALECT === 'sqlite')('npm run demo', { timeout: 120_000 }, () => {
  const dir = tempDir('sector-demo-');
  const demoDb = path.join(dir, 'demo.db');
  // A real site's setting left in the shell: the demo must not touch that database.
  const realDb = path.join(dir, 'real.db');
  let demo: ServerProcess;
  beforeAll(async () => {
    demo = await startServer(
      {
        SECTOR_DEMO_DATABASE: `sqlite:${demoDb}`,
        DATABASE_URL: `sqlite:${realDb}`,
        SMTP_URL: 'smtp://192.0.2.1:25',
        MAIL_FROM: 'demo@example.org',
      },
      ROOT,
      ['--demo'],
    );
  });
  afterAll(() => demo.stop());

  it('signs in as a demo mentor with one click (a form post with its token), on its own database', async () => {
    const page = await send(demo.url, 'GET', '/auth/login?next=%2Fstaff');
    expect(page.status).toBe(200);
    const people = [...page.body.matchAll(/<h2>(\w+)<\/h2>\s*<p><strong>([^<]+)<\/strong> \((\d+)\)/g)].map((m) => [
      m[1],
      m[2],
      Number(m[3]),
    ]);
    expect(people.map((p) => p[0])).toEqual(['Student', 'Mentor', 'Moderator', 'Administrator']);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const mentor = people[1]!;

    const forged = await send(
      demo.url,
      'POST',
      '/auth/demo',
      { ...FORM, cookie: cookiesOf(page).join('; ') },
      form({ cid: String(mentor[2]), _csrf: 'x' }),
    );
    expect(forged.status).toBe(403);
    const stranger = await send(
      demo.url,
      'POST',
      '/auth/demo',
      { ...FORM, cookie: cookiesOf(page).join('; ') },
      form({ cid: '1234567', _csrf: token }),
    );
    expect(stranger.status).toBe(422);
    const notACid = await send(
      demo.url,
      'POST',
      '/auth/demo',
      { ...FORM, cookie: cookiesOf(page).join('; ') },
      form({ cid: 'abc', _csrf: token }),
    );
    expect(notACid.status).toBe(422);
    expect(notACid.body).toContain('Only the people listed on the demo sign-in page can be signed in as; nobody was signed in.');

    const signedIn = await send(
      demo.url,
      'POST',
      '/auth/demo',
      { ...FORM, cookie: cookiesOf(page).join('; ') },
      form({ cid: String(mentor[2]), next: '/staff', _csrf: token }),
    );
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/staff');
    const session = cookiesOf(signedIn).find((c) => c.startsWith('sector_session='));
    expect(session).toBeDefined();
    const staff = await send(demo.url, 'GET', '/staff', { cookie: session! });
    expect(staff.status).toBe(200);
    expect(staff.body).toContain(`Signed in as <strong>${mentor[1]}</strong> (${mentor[2]})`);

    expect(fs.existsSync(demoDb)).toBe(true);
    expect(fs.existsSync(realDb)).toBe(false);
  });

  it('shows the demo banner on every page, signed out and signed in', async () => {
    const page = await send(demo.url, 'GET', '/auth/login');
    const cid = /name="cid" value="(\d+)"/.exec(page.body)![1]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const signedIn = await send(
      demo.url,
      'POST',
      '/auth/demo',
      { ...FORM, cookie: cookiesOf(page).join('; ') },
      form({ cid, _csrf: token }),
    );
    const cookie = cookiesOf(signedIn).find((c) => c.startsWith('sector_session='))!;
    for (const [url, status] of [
      ['/', 200],
      ['/auth/login', 200],
      ['/my/bookings', 200],
      ['/my/training', 200],
      ['/bookings/new', 200],
      ['/bookings/99999999/edit', 404],
      ['/staff', 403],
    ] as const) {
      const r = await send(demo.url, 'GET', url, { cookie });
      expect(r.status, url).toBe(status);
      expect(r.body, url).toMatch(/<body[^>]*>\s*<aside class="demo-banner" aria-label="Demo">/);
    }
  });

  it.each([
    ['X-Forwarded-For', { 'x-forwarded-for': '203.0.113.7' }],
    ['Forwarded', { forwarded: 'for=203.0.113.7' }],
    ['X-Forwarded-Host', { 'x-forwarded-host': 'demo.example.org' }],
    ['a host name that is not loopback', { host: 'demo.example.org' }],
    ['a non-loopback address as Host', { host: '192.168.1.5:8080' }],
  ])('answers 403 to a request with %s (a tunnel or proxy in front of it)', async (_what, headers) => {
    for (const [method, url] of [
      ['GET', '/'],
      ['GET', '/auth/login'],
      ['POST', '/auth/demo'],
      ['GET', '/api/positions'],
    ] as const) {
      const r = await send(
        demo.url,
        method,
        url,
        { ...headers, ...(method === 'POST' ? FORM : {}) },
        method === 'POST' ? form({ cid: '1' }) : undefined,
      );
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body).toContain('it answers only on the computer it runs on');
      expect(r.headers['set-cookie']).toBeUndefined();
    }
  });

  it.each(['0.0.0.0', '::', '192.0.2.1'])('refuses to start with HOST=%s, in one line', (host) => {
    const r = runDemo({ HOST: host, PORT: '0', SECTOR_DEMO_DATABASE: `sqlite:${path.join(dir, 'host.db')}` });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`sector: npm run demo listens only on this computer (HOST=127.0.0.1, ::1 or localhost); HOST=${host}`);
  });

  it('refuses a database that is not a SQLite file of its own', () => {
    const r = runDemo({ HOST: '127.0.0.1', PORT: '0', SECTOR_DEMO_DATABASE: 'postgres://root@127.0.0.1:5432/real' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('sector: npm run demo runs only on a SQLite file of its own (./data/demo.db)');
  });

  it('refuses a demo database holding users who are not of the demo division, changing nothing', async () => {
    const file = path.join(dir, 'other.db');
    await importData({ DATABASE_URL: `sqlite:${file}` }, buildDivision());
    const before = await tableRows(`sqlite:${file}`, ['users', 'sessions', 'audit_log']);
    const bytes = fs.readFileSync(file);
    const r = runDemo({ HOST: '127.0.0.1', PORT: '0', SECTOR_DEMO_DATABASE: `sqlite:${file}` });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `sector: npm run demo runs only on its own database, and ${file} holds users who are not of the demo division; move that file away and start again`,
    );
    // Refused before anything was migrated or written: the file is as it was, byte for byte.
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(await tableRows(`sqlite:${file}`, ['users', 'sessions', 'audit_log'])).toEqual(before);
  });

  it('has no demo routes and no banner in a normal start', async () => {
    const normal = await startServer({ DATABASE_URL: `sqlite:${path.join(dir, 'normal.db')}` });
    try {
      const login = await send(normal.url, 'GET', '/auth/login');
      expect(login.status).toBe(404);
      expect(login.body).not.toContain('/auth/demo');
      expect((await send(normal.url, 'POST', '/auth/demo', FORM, form({ cid: '1' }))).status).toBe(404);
      expect((await send(normal.url, 'GET', '/')).body).not.toContain('demo-banner');
    } finally {
      await normal.stop();
    }
  });
});
