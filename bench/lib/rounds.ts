// Several servers measured under the same load, taking turns: never two loaded at once (on two
// cores the load generator needs one), rounds alternating between them so that a burst of outside
// load falls on all alike. Each side reports its median round; with `minResponses`, latencies are
// pooled over all its rounds, and rounds last long enough for every side to have that many.
import { load, medianRound, percentile, type LoadTarget, type RoundResult } from './load.js';

export interface Durations {
  /** Seconds. */
  warmup: number;
  /** Seconds. */
  round: number;
  rounds: number;
}

export interface Side {
  label: string;
  target: LoadTarget;
}

export interface RoundsSettings {
  connections: number;
  /** Seconds. */
  warmup: number;
  /** Seconds: the shortest round. */
  round: number;
  rounds: number;
  /** Pool latencies and make rounds long enough for this many 2xx responses per side. */
  minResponses?: number;
  /** Rounds of one side never last longer than this (seconds). */
  maxRound?: number;
}

export interface SideOutcome {
  label: string;
  warm: RoundResult;
  rounds: RoundResult[];
  median: RoundResult;
  /** Pooled over every round (with minResponses), else null. */
  pooled: { responses: number; p50: number; p99: number } | null;
}

const fixed = (n: number): string => n.toFixed(1);

export function describeRound(who: string, r: RoundResult): string {
  return (
    `${who}: ${fixed(r.rps)} req/s (2xx), p50 ${r.p50} ms, p99 ${r.p99} ms, status ${JSON.stringify(r.statusCodes)}` +
    (r.errors || r.timeouts ? `, errors ${r.errors}, timeouts ${r.timeouts}` : '')
  );
}

const loadSide = (side: Side, settings: Parameters<typeof load>[1]): Promise<RoundResult> => load(side.target, settings);

export async function alternateRounds(
  sides: readonly Side[],
  settings: RoundsSettings,
  log: (line: string) => void,
): Promise<SideOutcome[]> {
  const keepLatencies = settings.minResponses !== undefined;
  const base = { connections: settings.connections, keepLatencies };
  const warm: RoundResult[] = [];
  for (const side of sides) warm.push(await loadSide(side, { ...base, duration: settings.warmup }));

  let seconds = settings.round;
  if (settings.minResponses !== undefined) {
    // The slowest side sets the length: each of its rounds must bring a share of the responses.
    const slowest = Math.max(1e-3, Math.min(...warm.map((w) => w.rps)));
    const needed = Math.ceil((settings.minResponses / settings.rounds / slowest) * 1.15);
    seconds = Math.min(settings.maxRound ?? 60, Math.max(settings.round, needed));
  }
  const rounds: RoundResult[][] = sides.map(() => []);
  const pooledCount = (i: number): number => rounds[i]!.reduce((n, r) => n + (r.latencies?.length ?? 0), 0);
  const enough = (): boolean => settings.minResponses === undefined || sides.every((_, i) => pooledCount(i) >= settings.minResponses!);
  for (let round = 0; round < settings.rounds || (!enough() && round < settings.rounds * 3); round++) {
    for (const [i, side] of sides.entries()) {
      const result = await loadSide(side, { ...base, duration: seconds });
      rounds[i]!.push(result);
      log(`   ${describeRound(`${side.label.padEnd(8)} round ${round + 1}`, result)}`);
    }
  }
  return sides.map((side, i) => {
    let pooled: SideOutcome['pooled'] = null;
    if (keepLatencies) {
      const all = rounds[i]!.flatMap((r) => r.latencies ?? []).sort((a, b) => a - b);
      pooled =
        all.length > 0
          ? { responses: all.length, p50: percentile(all, 50), p99: percentile(all, 99) }
          : { responses: 0, p50: NaN, p99: NaN };
    }
    return { label: side.label, warm: warm[i]!, rounds: rounds[i]!, median: medianRound(rounds[i]!), pooled };
  });
}
