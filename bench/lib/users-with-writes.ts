// Users with every relation read by several connections while bookings are created at a steady
// rate: a booking write must not rebuild the users lists, so their latency stays near read-only.
import { load, percentile, type LoadTarget, type RoundResult } from './load.js';
import { describeRound, type Durations } from './rounds.js';
import { TARGETS } from './scenarios.js';
import type { Sector } from './sector.js';

export interface UsersWithWrites {
  p50: number | null;
  /** Creates per second acknowledged during the rounds. */
  createRate: number | null;
  /** Creates acknowledged, warm-up included. */
  creates: number;
  failures: string[];
}

export async function measureUsersWithWrites({
  sector,
  users,
  create,
  connections,
  durations,
  minResponses,
  log,
}: {
  sector: Sector;
  users: LoadTarget;
  create: LoadTarget;
  connections: number;
  durations: Durations;
  minResponses: number;
  log: (line: string) => void;
}): Promise<UsersWithWrites> {
  const rate = TARGETS.usersWithWritesCreateRate;
  log(`\n== users with writes: the users scenario on ${connections} connections while bookings are created at ${rate}/s (${sector.name})`);
  const both = async (seconds: number): Promise<[RoundResult, RoundResult]> => {
    const writes = load(create, { connections: 10, duration: seconds, overallRate: rate });
    const reads = load(users, { connections, duration: seconds, keepLatencies: true });
    return [await reads, await writes];
  };
  const [warmReads, warmWrites] = await both(durations.warmup);
  const seconds = Math.min(
    60,
    Math.max(durations.round, Math.ceil((minResponses / durations.rounds / Math.max(warmReads.rps, 1e-3)) * 1.15)),
  );
  const reads: RoundResult[] = [];
  const writes: RoundResult[] = [];
  for (let round = 0; round < durations.rounds || (count(reads) < minResponses && round < durations.rounds * 3); round++) {
    const [r, w] = await both(seconds);
    reads.push(r);
    writes.push(w);
    log(`   ${describeRound(`users    round ${round + 1}`, r)}`);
    log(`   ${describeRound(`creates  round ${round + 1}`, w)}`);
  }
  const latencies = reads.flatMap((r) => r.latencies ?? []).sort((a, b) => a - b);
  const failures: string[] = [];
  const bad = [warmReads, warmWrites, ...reads, ...writes].reduce((n, r) => n + r.non2xx + r.errors, 0);
  if (bad > 0) failures.push(`users with writes: ${bad} non-2xx answers or connection errors`);
  const createRate = writes.reduce((n, w) => n + w.ok, 0) / writes.reduce((n, w) => n + w.duration, 0);
  if (createRate < rate * 0.9) failures.push(`users with writes: bookings created at ${createRate.toFixed(1)}/s, not ${rate}/s`);
  const p50 = latencies.length > 0 ? percentile(latencies, 50) : null;
  log(
    `   pooled: ${latencies.length} users answers, p50 ${p50?.toFixed(1)} ms, p99 ${latencies.length > 0 ? percentile(latencies, 99).toFixed(1) : '—'} ms; ${createRate.toFixed(1)} creates/s`,
  );
  return { p50, createRate, creates: [warmWrites, ...writes].reduce((n, w) => n + w.ok, 0), failures };
}

const count = (rounds: readonly RoundResult[]): number => rounds.reduce((n, r) => n + (r.latencies?.length ?? 0), 0);
