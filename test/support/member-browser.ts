// A browser for page tests: keeps the cookies the application sets (as a browser would, by name)
// and follows a sign-in through the VATSIM Connect stand-in (test/support/connect-stand-in.ts).
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ConnectStandIn } from './connect-stand-in.js';

export class MemberBrowser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  cookieHeader(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }

  /** A copy with the same cookies (the same browser in another tab, or its cookie stolen). */
  clone(): MemberBrowser {
    const other = new MemberBrowser(this.app);
    for (const [n, v] of this.cookies) other.cookies.set(n, v);
    return other;
  }

  keep(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of response.cookies as Array<{ name: string; value: string; expires?: Date; maxAge?: number }>) {
      const gone = c.value === '' || (c.expires !== undefined && c.expires.getTime() <= Date.now()) || c.maxAge === 0;
      if (gone) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return response;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.keep(await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader() } }));
  }

  async post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      }),
    );
  }

  /** GET /auth/login, then the network's authorization page: the callback path the network sends the browser back to. */
  async startSignIn(connect: ConnectStandIn, next?: string): Promise<string> {
    const login = await this.get(next === undefined ? '/auth/login' : `/auth/login?next=${encodeURIComponent(next)}`);
    if (login.statusCode !== 302) throw new Error(`GET /auth/login returned ${login.statusCode}: ${login.body}`);
    const location = String(login.headers.location);
    if (!location.startsWith(`${connect.url}/oauth/authorize?`)) throw new Error(`sent to ${location}`);
    const authorize = await fetch(location, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    return `${back.pathname}${back.search}`;
  }

  /** The whole sign-in; returns the callback's response. */
  async signIn(connect: ConnectStandIn, next?: string): Promise<LightMyRequestResponse> {
    return this.get(await this.startSignIn(connect, next));
  }
}

/** The CSRF token of the first form on a page. */
export function formToken(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1]!;
}
