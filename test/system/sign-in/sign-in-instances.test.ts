// Sessions live in the database: a member signed in through one instance is signed in on every
// other, and signing out on one ends the session on all (contract §14). Two server processes on
// one PostgreSQL database, neither given SESSION_SECRET: they share the one generated at start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, TEST_DIALECT } from '../../support/context.js';
import { connectUser, type ConnectStandIn, startConnectStandIn } from '../../support/connect-stand-in.js';
import { startServer, type ServerProcess } from '../../support/processes.js';

/** A browser over real HTTP: keeps cookies by name, follows no redirect. */
class Browser {
  readonly cookies = new Map<string, string>();
  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const r = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.header() },
    });
    for (const line of r.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return r;
  }
  post(url: string, form: Record<string, string>): Promise<Response> {
    return this.get(url, {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

describe.runIf(TEST_DIALECT === 'postgres')('sign-in across instances on one PostgreSQL database', () => {
  let connect: ConnectStandIn;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    connect = await startConnectStandIn();
    connect.setUser(connectUser(1345678, { id: 5, short: 'C1' }, { name_first: 'Signe', name_last: 'Dahl' }));
    const env = {
      DATABASE_URL: freshDatabaseUrl(),
      CONNECT_URL: connect.url,
      CONNECT_CLIENT_ID: connect.clientId,
      CONNECT_CLIENT_SECRET: connect.clientSecret,
      PUBLIC_URL: 'http://bookings.localhost',
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    // beforeAll may have failed before the servers or the stand-in were assigned.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    await Promise.all([a?.stop(), b?.stop(), connect?.close()]);
  });

  it('signs in through A and B, and signing out on B refuses the cookie on A', async () => {
    const browser = new Browser();
    // Started on A, finished on B: the sign-in under way is in the database too.
    const login = await browser.get(`${a.url}/auth/login`);
    expect(login.status).toBe(302);
    const authorize = await fetch(login.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('http://bookings.localhost/auth/callback');
    const done = await browser.get(`${b.url}${back.pathname}${back.search}`);
    expect(done.status).toBe(303);
    expect(browser.cookies.has('sector_session')).toBe(true);
    const stolen = browser.header();

    const onA = await (await browser.get(`${a.url}/`)).text();
    expect(onA).toContain('Signe Dahl');
    expect(onA).toContain('Sign out');
    const token = /name="_csrf" value="([^"]+)"/.exec(onA)![1]!;
    expect(await (await browser.get(`${b.url}/`)).text()).toContain('Sign out');

    const out = await browser.post(`${b.url}/auth/logout`, { _csrf: token });
    expect(out.status).toBe(303);
    const after = await fetch(`${a.url}/`, { headers: { cookie: stolen } });
    const page = await after.text();
    expect(page).not.toContain('Sign out');
    expect(page).toContain('Sign in');
  });
});
