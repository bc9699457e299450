// Filtered bookings lists under load: 8 connections each asking GET /api/bookings with its own
// `from` (one millisecond apart, so no two requests share a cached answer), while 2 connections
// poll the cached, unfiltered GET /api/bookings. Reports the cached GET's latency (worst case
// included) and Sector's peak RSS (VmHWM), on the benchmark's dataset (bench/lib/dataset.ts).
//
//   npm run build && npx tsx bench/filtered-lists.ts [--duration 20] [--key]
//
// --key sends the edit key on the filtered requests (full form) as well as on the cached GET.
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildDataset } from './lib/dataset.js';
import { exchange } from './lib/http.js';
import { ROOT, freePort, peakRssMb, startNode, waitUntil } from './lib/processes.js';

const { values: args } = parseArgs({ options: { duration: { type: 'string', default: '20' }, key: { type: 'boolean', default: false } } });
const DURATION = Number(args.duration);
const NOW = Date.now();

const run = (options: autocannon.Options & { duration: number }): Promise<autocannon.Result> =>
  new Promise((resolve, reject) => {
    const instance = autocannon({ timeout: 30, pipelining: 1, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
    setTimeout(() => instance.stop(), (options.duration + 30) * 1000).unref();
  });

const dataset = await buildDataset({ now: NOW });
const port = await freePort();
const sector = startNode(path.join(ROOT, 'dist/server.js'), {
  name: 'Sector',
  env: {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: dataset.databaseUrl,
    RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
    DATA_FEED_URL: 'off',
  },
});
try {
  await waitUntil(
    async () => {
      if ((await exchange({ port, path: '/health' })).status !== 200) throw new Error('not ready');
    },
    { process: sector },
  );
  const headers: Record<string, string> = args.key ? { authorization: `Bearer ${dataset.token}` } : {};
  const cached = await exchange({ port, path: '/api/bookings', headers });
  const base = `http://127.0.0.1:${port}`;

  // Warm-up: the cached list is built once; the JIT sees both paths.
  await run({ url: `${base}/api/bookings`, headers, connections: 2, duration: 2 });
  const quiet = await run({ url: `${base}/api/bookings`, headers, connections: 2, duration: Math.max(5, DURATION / 2) });

  let n = 0;
  const filtered = run({
    url: `${base}/api/bookings`,
    headers,
    connections: 8,
    duration: DURATION,
    requests: [{ setupRequest: (req) => ({ ...req, path: `/api/bookings?from=${new Date(NOW + n++).toISOString()}` }) }],
  });
  const probe = run({ url: `${base}/api/bookings`, headers, connections: 2, duration: DURATION });
  const [f, p] = await Promise.all([filtered, probe]);

  const line = (name: string, r: autocannon.Result): string =>
    `${name.padEnd(34)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
  console.log(
    `dataset: ${JSON.stringify(dataset.counts)}; cached list ${cached.body.length} bytes; ${args.key ? 'with' : 'without'} a key`,
  );
  console.log(line('cached GET, alone', quiet));
  console.log(line('cached GET, beside filtered load', p));
  console.log(line(`filtered GETs (${n} distinct from)`, f));
  console.log(`peak RSS (VmHWM): ${peakRssMb(sector.pid)?.toFixed(1)} MB`);
} finally {
  await sector.stop();
}
