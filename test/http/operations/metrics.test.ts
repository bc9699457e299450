import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { buildBooking, buildDivision, buildPosition } from '../../support/factories.js';
import { runCli, startServer, type ServerProcess } from '../../support/processes.js';
import { createKey, importData } from '../../support/seed.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reader of the Prometheus text format 0.0.4: every line is empty, a HELP or TYPE comment, or a
 * sample `name{label="value",…} number`; anything else fails the test.
 */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  expect(text.endsWith('\n')).toBe(true);
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
  const sampleRe = new RegExp(
    `^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?,?\\})? (-?(?:\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?|\\+Inf|-Inf|NaN|Nan))(?: -?\\d+)?$`,
  );
  // Values are Go floats (Prometheus parses them with ParseFloat, which takes any case of NaN;
  // prom-client writes "Nan" for the event-loop lag before its first sample).
  for (const line of text.slice(0, -1).split('\n')) {
    // The format ignores empty lines (prom-client puts one between metric families).
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      expect(line, line).toMatch(new RegExp(`^# HELP ${NAME} .*$`));
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const m = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
      expect(m, line).not.toBeNull();
      types.set(m![1]!, m![2]!);
      continue;
    }
    const m = sampleRe.exec(line);
    expect(m, `not a sample line: ${JSON.stringify(line)}`).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m![2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    samples.push({ name: m![1]!, labels, value: Number(m![3]!.replace('+Inf', 'Infinity')) });
  }
  return { samples, types };
}

const DATA = buildDivision({
  positions: [buildPosition('EKCH_DEL')],
  bookings: [
    buildBooking({ id: 10, callsign: 'EKCH_DEL', time_start: '2030-01-01 10:00:00', time_end: '2030-01-01 11:00:00' }),
    buildBooking({ id: 11, callsign: 'EKCH_DEL', time_start: '2030-01-02 10:00:00', time_end: '2030-01-02 11:00:00' }),
    buildBooking({ id: 12, callsign: 'EKCH_DEL', time_start: '2030-01-03 10:00:00', time_end: '2030-01-03 11:00:00', deleted: true }),
  ],
});

// Each test runs several CLI processes and servers: on a loaded machine that takes a while.
const SLOW_MS = 90_000;

describe('GET /metrics', () => {
  let server: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    env = { DATABASE_URL: freshDatabaseUrl() };
    await importData(env, DATA);
    // A tiny rate limit: /metrics must not count against it.
    server = await startServer({ ...env, RATE_LIMIT: '4' });
  }, SLOW_MS);
  afterAll(() => server.stop());

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    return parseExposition(await res.text());
  };

  it(
    'exposes requests by route template and status, durations, cache, database, live bookings and process metrics',
    { timeout: SLOW_MS },
    async () => {
      const first = await fetch(`${server.url}/api/bookings`);
      // A client that kept the list asks whether it still holds: it does (304), then a stale copy does not.
      const etag = first.headers.get('etag')!;
      expect((await fetch(`${server.url}/api/bookings`, { headers: { 'if-none-match': etag } })).status).toBe(304);
      await fetch(`${server.url}/api/bookings/10`, { headers: { 'if-none-match': '"stale"' } });
      await fetch(`${server.url}/api/bookings/999999`);
      const { samples, types } = await scrape();
      const find = (name: string, labels: Record<string, string> = {}) =>
        samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

      expect(find('sector_http_requests_total', { method: 'GET', route: '/api/bookings', status: '200' })[0]?.value).toBe(1);
      expect(find('sector_http_requests_total', { method: 'GET', route: '/api/bookings', status: '304' })[0]?.value).toBe(1);
      expect(find('sector_http_requests_total', { method: 'GET', route: '/api/bookings/:id', status: '200' })[0]?.value).toBe(1);
      expect(find('sector_http_requests_total', { method: 'GET', route: '/api/bookings/:id', status: '404' })[0]?.value).toBe(1);
      expect(types.get('sector_http_requests_total')).toBe('counter');
      expect(types.get('sector_http_request_duration_seconds')).toBe('histogram');
      const buckets = find('sector_http_request_duration_seconds_bucket', { route: '/api/bookings', status: '200' }).map(
        (s) => s.labels.le,
      );
      expect(buckets[0]).toBe('0.001');
      expect(buckets).toContain('10');
      expect(buckets.at(-1)).toBe('+Inf');
      expect(find('sector_http_request_duration_seconds_count', { route: '/api/bookings', status: '200' })[0]?.value).toBe(1);

      // The conditional GETs: one got 304, one the full response; the deprecated names count the same.
      expect(find('sector_http_conditional_requests_total', { response: 'not_modified' })[0]!.value).toBe(1);
      expect(find('sector_http_conditional_requests_total', { response: 'full' })[0]!.value).toBe(1);
      expect(types.get('sector_http_conditional_requests_total')).toBe('counter');
      expect(find('sector_response_cache_hits_total')[0]!.value).toBe(1);
      expect(find('sector_response_cache_misses_total')[0]!.value).toBe(1);
      expect(types.get('sector_db_query_duration_seconds')).toBe('histogram');
      expect(find('sector_db_query_duration_seconds_count', { statement: 'select', outcome: 'ok' })[0]!.value).toBeGreaterThan(0);
      expect(find('sector_bookings_live')[0]!.value).toBe(2);
      expect(types.get('sector_bookings_live')).toBe('gauge');
      expect(find('process_cpu_seconds_total')).toHaveLength(1);
      expect(find('nodejs_heap_size_used_bytes')).toHaveLength(1);
    },
  );

  it('never labels by raw URL: unknown paths are "unmatched", and the label set stays bounded', { timeout: SLOW_MS }, async () => {
    for (let i = 0; i < 40; i++) {
      const junk = `/x${Math.random().toString(36).slice(2)}/${i}?q=${i}`;
      expect((await fetch(`${server.url}${junk}`)).status).toBe(404);
    }
    await fetch(`${server.url}/api/positions`, { method: 'DELETE' });
    const { samples } = await scrape();
    const routes = new Set(samples.filter((s) => s.name === 'sector_http_requests_total').map((s) => s.labels.route));
    for (const route of routes) expect(route === 'unmatched' || route!.startsWith('/'), route).toBe(true);
    expect([...routes].some((r) => r!.startsWith('/x'))).toBe(false);
    expect(
      samples.find((s) => s.name === 'sector_http_requests_total' && s.labels.route === 'unmatched' && s.labels.status === '404')!.value,
    ).toBeGreaterThanOrEqual(40);
    expect(routes.size).toBeLessThanOrEqual(6);
    const series = samples.filter((s) => s.name.startsWith('sector_http_request'));
    expect(series.length).toBeLessThan(200);
  });

  it('is not rate limited (while the API routes are, past 4 a minute)', { timeout: SLOW_MS }, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${server.url}/api/positions`)).status);
    expect(statuses).toContain(429);
    for (let i = 0; i < 6; i++) expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  });

  it('METRICS=0 turns it off: 404 JSON', { timeout: SLOW_MS }, async () => {
    const off = await startServer({ ...env, METRICS: '0' });
    try {
      const res = await fetch(`${off.url}/metrics`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toBeTruthy();
    } finally {
      await off.stop();
    }
  });
  it(
    'counts what the outboxes owe: webhook deliveries and network pushes, across instances, and push outcomes',
    { timeout: SLOW_MS },
    async () => {
      // Nothing listens on the discard port: every delivery and push fails and waits for its retry.
      const nowhere = 'http://127.0.0.1:9';
      const owing = { ...env, NETWORK_BOOKINGS_URL: `${nowhere}/api`, NETWORK_BOOKINGS_KEY: 'k', NETWORK_RETRY_BASE_MS: '3600000' };
      const added = runCli(['webhook:add', '--url', `${nowhere}/hook`, '--json'], owing);
      expect(added.code, added.stderr).toBe(0);
      const token = await createKey(owing, 'metrics edit');
      const owed = await startServer({ ...owing, WEBHOOK_RETRY_BASE_MS: '3600000' });
      try {
        const created = await fetch(`${owed.url}/api/bookings/create`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ cid: 1000001, date: '1/2/2030', start_at: '10:00', end_at: '11:00', position: 'EKCH_DEL' }),
        });
        expect(created.status).toBe(201);
        let samples: Sample[] = [];
        const value = (name: string, labels: Record<string, string> = {}): number | undefined =>
          samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
        for (let i = 0; i < 200; i++) {
          samples = parseExposition(await (await fetch(`${owed.url}/metrics`)).text()).samples;
          if ((value('sector_network_pushes_total', { outcome: 'retry' }) ?? 0) >= 1 && value('sector_events_pending') === 1) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(value('sector_events_pending')).toBe(1);
        expect(value('sector_webhook_deliveries', { status: 'pending' })).toBe(1);
        expect(value('sector_events_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
        expect(value('sector_network_pushes', { status: 'pending' })).toBe(1);
        expect(value('sector_network_pushes', { status: 'refused' })).toBe(0);
        expect(value('sector_network_pushes_total', { outcome: 'retry' })).toBeGreaterThanOrEqual(1);
        expect(value('sector_network_pushes_total', { outcome: 'done' })).toBe(0);
      } finally {
        await owed.stop();
      }
    },
  );
});
