// Memory held by the read caches stays within fixed budgets, whatever clients ask for: distinct
// filters are distinct cache entries, and each unpaginated list can run to megabytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VersionedCache } from '../../src/db/freshness.js';
import { RESPONSE_CACHE_BYTES } from '../../src/services/response-cache.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { buildBooking, buildDivision } from '../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const HOUR = 3_600_000;
const BOOKINGS = 3000;

const pad = (n: number) => String(n).padStart(2, '0');
const sqlTime = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`;
};

describe('the response cache under many distinct filters', () => {
  let ctx: TestContext;
  let read: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        bookings: Array.from({ length: BOOKINGS }, (_, i) =>
          buildBooking({ time_start: sqlTime(NOW + i * HOUR), time_end: sqlTime(NOW + (i + 1) * HOUR) }),
        ),
      }),
    );
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  it('keeps at most RESPONSE_CACHE_BYTES when every request names a new `from`', async () => {
    let sent = 0;
    for (let i = 0; i < 50; i++) {
      // Each a millisecond apart, all before the first booking: every answer is the whole list.
      const from = new Date(Date.UTC(2020, 0, 1) + i).toISOString();
      const res = await ctx.request({ method: 'GET', url: `/api/bookings?from=${from}`, token: read });
      expect(res.statusCode).toBe(200);
      sent += res.rawPayload.length;
      expect(ctx.services.responses.bytes).toBeLessThanOrEqual(RESPONSE_CACHE_BYTES);
    }
    // The requests did ask for more than the budget, so the bound was tested, not just unreached.
    expect(sent).toBeGreaterThan(1.25 * RESPONSE_CACHE_BYTES);
    // And one-off filters are cut from the cached full list, not kept themselves: the cache holds
    // about one list (with its index), not a budget's worth of copies of it.
    const oneList = sent / 50;
    expect(ctx.services.responses.bytes).toBeGreaterThan(oneList);
    expect(ctx.services.responses.bytes).toBeLessThan(1.5 * oneList);

    const last = await ctx.request({
      method: 'GET',
      url: `/api/bookings?from=${new Date(Date.UTC(2020, 0, 1) + 49).toISOString()}`,
      token: read,
    });
    expect(last.json()).toHaveLength(BOOKINGS);
  });
});

describe('VersionedCache with a byte budget', () => {
  const sized = (key: string, value: Buffer) => value.byteLength;
  const cacheOf = (maxBytes: number, maxEntryBytes = maxBytes, maxEntries = 100) => {
    let version = 's1';
    const cache = new VersionedCache<Buffer>(async () => version, maxEntries, { maxBytes, maxEntryBytes, sizeOf: sized });
    const loads: string[] = [];
    const get = (key: string, bytes = 10) =>
      cache.get(key, async () => {
        loads.push(key);
        return Buffer.alloc(bytes);
      });
    return { cache, loads, get, setVersion: (s: string) => (version = s) };
  };

  it('answers a hit with the very value it stored, not a copy', async () => {
    const { get, loads } = cacheOf(100);
    const first = await get('a');
    expect(await get('a')).toBe(first);
    expect(loads).toEqual(['a']);
  });

  it('evicts the least recently used entries to stay within its bytes', async () => {
    const { cache, get, loads } = cacheOf(30);
    await get('a');
    await get('b');
    await get('c');
    await get('a'); // a is now the most recently used; b the least
    await get('d');
    expect(cache.bytes).toBe(30);
    expect(cache.size).toBe(3);
    loads.length = 0;
    await get('a');
    await get('c');
    await get('d');
    expect(loads).toEqual([]);
    await get('b');
    expect(loads).toEqual(['b']);
  });

  it('evicts as many entries as a large value needs', async () => {
    const { cache, get } = cacheOf(30);
    await get('a');
    await get('b');
    await get('c');
    await get('big', 25);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(25);
  });

  it('returns a value over the per-entry limit without keeping it or evicting anything', async () => {
    const { cache, get, loads } = cacheOf(100, 40);
    await get('a');
    expect((await get('huge', 50)).byteLength).toBe(50);
    expect(cache.bytes).toBe(10);
    await get('huge', 50);
    await get('a');
    expect(loads).toEqual(['a', 'huge', 'huge']);
  });

  it('keeps at most maxEntries entries, dropping the least recently used', async () => {
    const { cache, get, loads } = cacheOf(1000, 1000, 2);
    await get('a');
    await get('b');
    await get('a');
    await get('c');
    expect(cache.size).toBe(2);
    loads.length = 0;
    await get('a');
    await get('b');
    expect(loads).toEqual(['b']);
  });

  it('drops an entry of an older version when it is next asked for, and counts its replacement once', async () => {
    const { cache, get, loads, setVersion } = cacheOf(100);
    await get('a');
    setVersion('s2');
    await get('a', 20);
    expect(loads).toEqual(['a', 'a']);
    expect(cache.bytes).toBe(20);
    expect(cache.size).toBe(1);
  });
});
