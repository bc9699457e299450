// What a wrong API key costs the database. A token that cannot be right (the wrong secret of a
// known key, a revoked key) is refused from memory; an id no key has is looked up (one indexed
// read: it may name a key moved in later), and a request refused by the rate limit never reaches
// the database at all; revocation still holds on the very next request, on every instance.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToken } from '../../../src/features/api-keys/tokens.js';
import { openDatabase, type Db } from '../../../src/core/db/connection.js';
import { loadConfig } from '../../../src/config.js';
import { createServices } from '../../../src/app/services.js';
import { createTestContext, type TestContext } from '../../support/context.js';

const randomToken = () => `sector_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('base64url')}`;

describe('API key lookups', () => {
  let ctx: TestContext;
  let other: Db;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { RATE_LIMIT: '5' } });
    // Another connection to the same database, as the CLI or another instance would have.
    other = openDatabase(ctx.databaseUrl);
  });
  afterAll(async () => {
    await other.close();
    await ctx.close();
  });

  let ip = 0;
  const nextIp = () => `10.1.${Math.floor(++ip / 250)}.${ip % 250}`;
  const get = (remoteAddress: string, token: string, url = '/api/positions') =>
    ctx.app.inject({ method: 'GET', url, remoteAddress, headers: { authorization: `Bearer ${token}` } });

  it('looks a bogus token up only while its IP is within its limit, however often it is sent', async () => {
    const address = nextIp();
    const bogus = randomToken();
    ctx.resetQueries();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const { statusCode } = await get(address, bogus);
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: 5, 429: 995 });
    // One lookup for each of the five requests within the budget, none after.
    expect(ctx.queries()).toBeLessThanOrEqual(5);
  });

  it('sends no lookup to the database for a request the rate limit refuses, even with a new id each time', async () => {
    const address = nextIp();
    ctx.resetQueries();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await get(address, randomToken())).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    // One lookup for each of the five requests within the budget, none after.
    expect(ctx.queries()).toBeLessThanOrEqual(5);
  });

  it('refuses the wrong secret of a known key without asking the database', async () => {
    const token = await ctx.key('read');
    expect((await get(nextIp(), token)).statusCode).toBe(200);
    const { id } = parseToken(token)!;
    ctx.resetQueries();
    for (let i = 0; i < 20; i++) {
      const res = await get(nextIp(), `sector_${id}_${randomBytes(32).toString('base64url')}`);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Invalid API key' });
    }
    expect(ctx.queries()).toBe(0);
  });

  it('still refuses a key revoked by another process on the very next request, then from memory', async () => {
    const token = await ctx.key('read');
    const address = nextIp();
    expect((await get(address, token, '/api/users?include=allUsers')).statusCode).toBe(200);
    await other.kysely.updateTable('api_keys').set({ revoked_at: Date.now() }).where('id', '=', parseToken(token)!.id).execute();
    await new Promise((resolve) => setImmediate(resolve));
    const refused = await get(address, token, '/api/users?include=allUsers');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: 'Invalid API key' });
    ctx.resetQueries();
    expect((await get(nextIp(), token)).statusCode).toBe(401);
    expect(ctx.queries()).toBe(0);
  });

  it('accepts a key created by another process', async () => {
    const elsewhere = createServices(loadConfig({ DATABASE_URL: ctx.databaseUrl, LOG_LEVEL: 'silent', DATA_FEED_URL: 'off' }), other).keys;
    const { token } = await elsewhere.create({ name: 'made-elsewhere', scope: 'read' });
    expect((await get(nextIp(), token, '/api/users?include=allUsers')).statusCode).toBe(200);
  });

  it('gives a valid key its own budget from an IP that has spent its own', async () => {
    const token = await ctx.key('read');
    const address = nextIp();
    for (let i = 0; i < 5; i++) await get(address, randomToken());
    expect((await get(address, randomToken())).statusCode).toBe(429);
    expect((await get(address, token)).statusCode).toBe(200);
  });
});
