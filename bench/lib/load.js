// Load from this process with autocannon, same settings for Sector and the baseline. Every run
// is bounded by its duration (plus a hard stop).
import autocannon from 'autocannon';

function once(options) {
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

function summarise(result) {
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

/**
 * One bounded autocannon run. target: { port, method, path, headers, setupRequest? } —
 * setupRequest(request) may replace the body of each request (gives every create its own slot).
 */
export async function load(target, { connections, duration }) {
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
export function medianRound(rounds) {
  const sorted = [...rounds].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
