// The same-work reference (bench/reference-server.ts) in a process of its own, on its own copy of
// the benchmark's database, and the check that it returns what Sector returns.
import path from 'node:path';
import type { Exchanged } from './http.js';
import { ROOT, startNode, waitUntil, type NodeProcess } from './processes.js';

export type ReferenceServer = NodeProcess & { port: number };

/** Starts the reference on `databaseFile`; resolves once it listens. */
export async function startReference(databaseFile: string): Promise<ReferenceServer> {
  const server = startNode(path.join(ROOT, 'bench/reference-server.ts'), {
    name: 'reference',
    // tsx only loads the modules; what runs per request is the same JavaScript as without it.
    nodeArgs: ['--import', 'tsx'],
    args: [databaseFile],
  });
  let stdout = '';
  server.onStdout((c) => (stdout += c.toString()));
  const port = await waitUntil(
    async () => {
      const m = /^(\d+)\n/.exec(stdout);
      if (!m) throw new Error('no port yet');
      return Number(m[1]);
    },
    { process: server, timeoutMs: 30_000 },
  );
  return { ...server, port };
}

/** The JSON's shape: every key and the type of every value, in order (ids and times of new rows differ). */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') return Object.entries(value).map(([k, v]) => [k, shape(v)]);
  return value === null ? null : typeof value;
}

/** Why the reference's response is not Sector's (empty when it is): same status, same JSON; for writes, the same shape. */
export function unlike(sector: Exchanged, reference: Exchanged, { write }: { write: boolean }): string[] {
  if (sector.status !== reference.status) return [`status ${sector.status} vs ${reference.status}`];
  const [a, b] = [JSON.parse(sector.body.toString()) as unknown, JSON.parse(reference.body.toString()) as unknown];
  const same = write ? JSON.stringify(shape(a)) === JSON.stringify(shape(b)) : JSON.stringify(a) === JSON.stringify(b);
  return same
    ? []
    : [`${write ? 'JSON shape' : 'JSON'} differs: ${sector.body.toString().slice(0, 120)} vs ${reference.body.toString().slice(0, 120)}`];
}
