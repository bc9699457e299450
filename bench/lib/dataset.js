// The benchmark's data: a demo division at production scale in a fresh SQLite file, loaded the
// way an operator would (the CLI's import), plus an edit key made with create:apikey.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, atExit, runNode } from './processes.js';

export const SCALE = { users: 10_000, endorsementsPerUser: 3, openTrainings: 2_000, bookings: 2_000 };
const CLI = path.join(ROOT, 'dist/cli/index.js');

export async function buildDataset({ now, seed = 1 }) {
  const { buildDemoDivision } = await import('../../dist/demo/division.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-bench-'));
  atExit(() => fs.rmSync(dir, { recursive: true, force: true }));
  const databaseUrl = `sqlite:${path.join(dir, 'bench.db')}`;

  const demo = buildDemoDivision({ now, seed, scale: SCALE });
  const file = path.join(dir, 'division.json');
  fs.writeFileSync(file, JSON.stringify(demo));
  const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
  const importRun = await runNode(CLI, ['import', file], { env });
  const imported = `${importRun.stdout}${importRun.stderr}`.trim();
  const key = JSON.parse((await runNode(CLI, ['create:apikey', '--name', 'bench', '--edit', '--json'], { env })).stdout.trim());

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
