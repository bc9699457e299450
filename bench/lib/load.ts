// Load from this process with autocannon, same settings for Sector and the baseline. Every run
// is bounded by its duration (plus a hard stop).
import autocannon from 'autocannon';

export interface LoadTarget {
  port: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** May replace the body of each request (gives every create its own slot). */
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
}

export interface LoadSettings {
  connections: number;
  /** Seconds. */
  duration: number;
  /**
   * Keep the latency of every 2xx response (RoundResult.latencies), for percentiles pooled over
   * rounds. It costs the load generator a callback per response: only for scenarios of few responses.
   */
  keepLatencies?: boolean;
  /** Requests per second over all connections; unset: as fast as the server responds. */
  overallRate?: number;
}

export interface RoundResult {
  /** 2xx responses. */
  ok: number;
  /** 2xx responses per second. */
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  duration: number;
  /** Milliseconds of every 2xx response, in order (only with keepLatencies). */
  latencies?: number[];
}

function once(options: autocannon.Options & { duration: number }, latencies: number[] | null): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ ...options, timeout: 10 }, (err, result) => {
      clearTimeout(hardStop);
      if (err) reject(err);
      else resolve(result);
    });
    if (latencies) {
      instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status >= 200 && status < 300) latencies.push(ms);
      });
    }
    // autocannon stops itself after `duration`; this only guards against a hang.
    const hardStop = setTimeout(() => instance.stop(), (options.duration + 30) * 1000);
  });
}

function summarise(result: autocannon.Result): RoundResult {
  const ok = result['2xx'];
  return {
    ok,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
    duration: result.duration,
  };
}

/** One bounded autocannon run. */
export async function load(target: LoadTarget, { connections, duration, keepLatencies, overallRate }: LoadSettings): Promise<RoundResult> {
  const options = {
    ...(overallRate ? { overallRate } : {}),
    url: `http://127.0.0.1:${target.port}${target.path}`,
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    connections,
    pipelining: 1,
    duration,
    ...(target.setupRequest ? { requests: [{ setupRequest: target.setupRequest }] } : {}),
  };
  const latencies = keepLatencies ? [] : null;
  const result = summarise(await once(options, latencies));
  return latencies ? { ...result, latencies } : result;
}

/** The p-th percentile (0–100) of ascending values, nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('percentile: no values');
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The round with the median rate (its latencies come with it): one burst of outside load does not decide. */
export function medianRound(rounds: readonly RoundResult[]): RoundResult {
  const sorted = [...rounds].sort((a, b) => a.rps - b.rps);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error('medianRound: no rounds');
  return median;
}
