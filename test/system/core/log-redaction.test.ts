// Credentials a client puts in the URL (a key as ?api_key=, a token anywhere in the path or the
// query) never reach the log in clear: not in request logs, not in the lines logged when a request
// fails. Checked on the log output of a real server process, at its most verbose level.
import { describe, expect, it } from 'vitest';
import { parseToken } from '../../../src/features/api-keys/tokens.js';
import { redactUrl, scrubCredentials } from '../../../src/core/web/redact.js';
import { freshDatabaseUrl, TEST_DIALECT } from '../../support/context.js';
import { startServer } from '../../support/processes.js';
import { createKey } from '../../support/seed.js';
import { connect, sleep } from '../../support/raw-http.js';
import { whileLocked } from '../../support/sqlite-lock.js';

describe('credentials in URLs', () => {
  it('are redacted in every log line, whatever the parameter is called or where the token sits', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const token = await createKey(env, 'in-url');
    const { id, secret } = parseToken(token)!;
    // Wrong credentials are secrets too: somebody's mistyped password, another service's token.
    const other = 'hunter2-9f8e7d6c5b4a';
    const server = await startServer({ ...env, LOG_LEVEL: 'trace' });

    const urls = [
      `/api/positions?api_key=${token}`,
      `/api/users?include=allUsers&apikey=${token}`,
      `/api/positions?key=${other}&limit=1`,
      `/api/positions?token=${other}`,
      `/api/positions?access_token=${other}`,
      `/api/positions?API_KEY=${other}`,
      `/api/positions?api%5Fkey=${other}`,
      `/api/positions?token[]=${other}`,
      `/api/positions?password=${other}&client_secret=${other}`,
      `/api/bookings?q=${token}`,
      `/api/bookings?q=${encodeURIComponent(token).replace(/_/g, '%5F')}`,
      `/api/bookings/${token}`,
      `/api/${token}/positions`,
    ];
    try {
      for (const url of urls) {
        const res = await fetch(`${server.url}${url}`);
        expect(res.status, url).toBeLessThan(500);
      }
      // A request the HTTP layer refuses, with the token in its request line and its headers.
      const conn = await connect(server.url);
      await conn.write(`GET /api/positions?api_key=${token} HTTP/9.z\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      await Promise.race([conn.closed, sleep(5000)]);

      if (TEST_DIALECT === 'sqlite') {
        // A request that fails (503, logged at warn): the database is locked past the retries.
        const create = (query: string) =>
          fetch(`${server.url}/api/bookings/create${query}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ cid: 1, date: '1/1/2030', start_at: '10:00', end_at: '11:00', position: 'EKCH_TWR' }),
          });
        // The route takes no query parameter: refused (422) before the database, and logged.
        expect((await create(`?access_token=${other}`)).status).toBe(422);
        await whileLocked(env.DATABASE_URL.slice('sqlite:'.length), async () => {
          expect((await create('')).status).toBe(503);
        });
      }
    } finally {
      await server.stop();
    }

    const logs = server.logs();
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(other);
    // The requests are in the log, their credentials marked as removed, the rest kept.
    expect(logs).toContain('/api/positions?api_key=[redacted]');
    expect(logs).toContain('/api/users?include=allUsers&apikey=[redacted]');
    expect(logs).toContain('/api/positions?key=[redacted]&limit=1');
    expect(logs).toContain('/api/positions?API_KEY=[redacted]');
    expect(logs).toContain('/api/positions?password=[redacted]&client_secret=[redacted]');
    // A token's id is not secret: it tells an operator whose key leaked.
    expect(logs).toContain(`/api/bookings/sector_${id}_[redacted]`);
    if (TEST_DIALECT === 'sqlite') {
      expect(logs).toContain('database busy');
      expect(logs).toContain('/api/bookings/create?access_token=[redacted]');
    }
  });
});

describe('redactUrl and scrubCredentials', () => {
  const token = `sector_0123456789abcdef_${'Ab9_-'.repeat(8)}xyz`;

  it('keep a URL without credentials as it is', () => {
    for (const url of [
      '/api/positions',
      '/api/bookings?from=2026-01-01&limit=5&cursor=abc_def',
      '/api/users?include[]=allUsers&onlyAtcActive=1',
      '/docs/static/index.css',
    ]) {
      expect(redactUrl(url)).toBe(url);
      expect(scrubCredentials(JSON.stringify({ url }))).toBe(JSON.stringify({ url }));
    }
  });

  it('replace credential parameters and token-shaped text, however written', () => {
    expect(redactUrl(`/a?api_key=${token}&x=1`)).toBe('/a?api_key=[redacted]&x=1');
    expect(redactUrl('/a?Access_Token=abc&client_secret=def&x-api-key=ghi')).toBe(
      '/a?Access_Token=[redacted]&client_secret=[redacted]&x-api-key=[redacted]',
    );
    expect(redactUrl('/a?api%5Fkey=abc&token%5B%5D=def')).toBe('/a?api%5Fkey=[redacted]&token%5B%5D=[redacted]');
    expect(redactUrl(`/a/${token}/b?q=${token}`)).toBe('/a/sector_0123456789abcdef_[redacted]/b?q=sector_0123456789abcdef_[redacted]');
    expect(redactUrl(`/a?q=${token.replace(/_/g, '%5F')}`)).toBe('/a?q=sector_0123456789abcdef_[redacted]');
  });

  it("keep a one-time link's token out of the log, in its path and in a sign-in's next", () => {
    const link = `slk_${'Ab9_-'.repeat(6)}xy`;
    expect(redactUrl(`/training/link/${link}`)).toBe('/training/link/slk_[redacted]');
    expect(redactUrl(`/auth/login?next=${encodeURIComponent(`/training/link/${link}`)}`)).toBe(
      '/auth/login?next=%2Ftraining%2Flink%2Fslk_[redacted]',
    );
    expect(scrubCredentials(`{"msg":"/training/link/${link.replace(/_/g, '%5F')}"}`)).toBe('{"msg":"/training/link/slk_[redacted]"}');
  });

  it('scrub the same from URLs quoted inside any log line', () => {
    const line = JSON.stringify({
      msg: `Reply was already sent, did you forget to "return reply" in the "/api/x?token=abc&api_key=${token}" (GET) route?`,
    });
    const scrubbed = scrubCredentials(line);
    expect(scrubbed).not.toContain('abc&');
    expect(scrubbed).not.toContain(token.slice(24));
    expect(scrubbed).toContain('/api/x?token=[redacted]&api_key=[redacted]');
    expect(scrubCredentials(`{"err":"${token.replace(/_/g, '%5F')}"}`)).toBe('{"err":"sector_0123456789abcdef_[redacted]"}');
    // Idempotent: a line already redacted stays as it is.
    expect(scrubCredentials(scrubbed)).toBe(scrubbed);
  });

  it("keep a sign-in's one-time code and state out of the log", () => {
    expect(redactUrl('/auth/callback?code=def502&state=Xy_9')).toBe('/auth/callback?code=[redacted]&state=[redacted]');
    expect(redactUrl('/auth/login?next=%2Fmy%2Fbookings')).toBe('/auth/login?next=%2Fmy%2Fbookings');
    expect(scrubCredentials('{"msg":"at /auth/callback?state=Xy_9&code=def502"}')).toBe(
      '{"msg":"at /auth/callback?state=[redacted]&code=[redacted]"}',
    );
  });
});
