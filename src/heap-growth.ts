// Imported by the server before its other modules: how far V8 lets the heap grow past its live
// data before the next full collection.
//
// Why: V8 sizes that headroom from how fast it collects, up to four times the live data. A server
// under a steady stream of writes promotes a few megabytes a second of short-lived objects (request
// bodies, plans, rows waiting for their group commit) into the old generation, and with a live
// heap of about 35 MB the old generation then climbs to 110 MB before it is collected: about
// 60 MB of resident memory that holds nothing. At 1.5 times the live data the full collections
// come every few seconds instead, take a few milliseconds each, and throughput is unchanged
// (bench/README.md, "Memory"). An operator who starts node with the flag keeps their value (Node
// refuses it in NODE_OPTIONS).
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

/** The V8 flag to set, or null when node was started with a growth of the operator's choosing. */
export function heapGrowthFlag(execArgv: readonly string[]): string | null {
  const chosen = execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg));
  return chosen ? null : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

const flag = heapGrowthFlag(process.execArgv);
if (flag !== null) v8.setFlagsFromString(flag);
