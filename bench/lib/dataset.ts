// The benchmark's data: a demo division at production scale in a fresh SQLite file, loaded the
// way an operator would (the CLI's import), plus an edit key made with create:apikey.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDemoDivision, type DemoScale } from '../../src/features/demo/division.js';
import { ROOT, atExit, runNode } from './processes.js';

export const SCALE: DemoScale = { users: 10_000, endorsementsPerUser: 3, openTrainings: 2_000, bookings: 2_000 };
const CLI = path.join(ROOT, 'dist/cli/index.js');

export interface Dataset {
  /** The temporary folder, removed at exit. */
  dir: string;
  databaseFile: string;
  databaseUrl: string;
  /** An edit key. */
  token: string;
  /** What the CLI's import said. */
  imported: string;
  /** Rows per section of the demo division. */
  counts: Record<string, number>;
  callsigns: string[];
  userIds: number[];
}

export async function buildDataset({ now, seed = 1 }: { now: number; seed?: number }): Promise<Dataset> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-bench-'));
  atExit(() => fs.rmSync(dir, { recursive: true, force: true }));
  const databaseUrl = `sqlite:${path.join(dir, 'bench.db')}`;

  const demo = buildDemoDivision({ now, seed, scale: SCALE });
  const file = path.join(dir, 'division.json');
  fs.writeFileSync(file, JSON.stringify(demo));
  const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
  const importRun = await runNode(CLI, ['import', file], { env });
  const imported = `${importRun.stdout}${importRun.stderr}`.trim();
  const keyRun = await runNode(CLI, ['create:apikey', '--name', 'bench', '--edit', '--json'], { env });
  const key: unknown = JSON.parse(keyRun.stdout.trim());
  if (typeof key !== 'object' || key === null || !('token' in key) || typeof key.token !== 'string') {
    throw new Error(`create:apikey --json printed no token: ${keyRun.stdout.trim()}`);
  }

  return {
    dir,
    databaseFile: path.join(dir, 'bench.db'),
    databaseUrl,
    token: key.token,
    imported,
    counts: Object.fromEntries(Object.entries(demo).map(([k, v]) => [k, v.length])),
    callsigns: demo.positions.map((p) => p.callsign),
    userIds: demo.users.map((u) => u.id),
  };
}
