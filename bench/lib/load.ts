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
}

export interface RoundResult {
  /** 2xx answers. */
  ok: number;
  /** 2xx answers per second. */
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  duration: number;
}

function once(options: autocannon.Options & { duration: number }): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ ...options, timeout: 10 }, (err, result) => {
      clearTimeout(hardStop);
      if (err) reject(err);
      else resolve(result);
    });
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
export async function load(target: LoadTarget, { connections, duration }: LoadSettings): Promise<RoundResult> {
  const options = {
    url: `http://127.0.0.1:${target.port}${target.path}`,
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    connections,
    pipelining: 1,
    duration,
    ...(target.setupRequest ? { requests: [{ setupRequest: target.setupRequest }] } : {}),
  };
  return summarise(await once(options));
}

/** The round with the median rate (its latencies come with it): one burst of outside load does not decide. */
export function medianRound(rounds: readonly RoundResult[]): RoundResult {
  const sorted = [...rounds].sort((a, b) => a.rps - b.rps);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error('medianRound: no rounds');
  return median;
}
