// Sector under measurement: its own process, from dist/, on 127.0.0.1, request logging off.
import fs from 'node:fs';
import path from 'node:path';
import { exchange } from './http.js';
import { ROOT, freePort, startNode, waitUntil, type NodeProcess } from './processes.js';

const PROFILE_DIR = path.join(ROOT, 'bench/profiles');

export type Sector = NodeProcess & { port: number; profileFile: string | null };

export async function startSector({
  databaseUrl,
  cpuProf = false,
  label,
  env = {},
}: {
  databaseUrl: string;
  cpuProf?: boolean;
  label: string;
  env?: Record<string, string>;
}): Promise<Sector> {
  const port = await freePort();
  const profileFile = cpuProf ? path.join(PROFILE_DIR, `sector-${label}-${Date.now()}.cpuprofile`) : null;
  const nodeArgs = profileFile
    ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', PROFILE_DIR, '--cpu-prof-name', path.basename(profileFile)]
    : [];
  const sector = startNode(path.join(ROOT, 'dist/server.js'), {
    name: `Sector (${label})`,
    nodeArgs,
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      DIVISION: 'EUD',
      SUBDIVISIONS: 'SCA',
      API_VARIANT: 'newer',
      API_COMPAT: 'none',
      // The machine running the bench may have no network: no poll of the real feed.
      DATA_FEED_URL: 'off',
      ...env,
    },
  });
  await waitUntil(
    async () => {
      const res = await exchange({ port, path: '/health' });
      if (res.status !== 200) throw new Error(`/health responded with ${res.status}`);
    },
    { process: sector },
  );
  return { ...sector, port, profileFile };
}

/** Stops Sector; returns its output when it did not exit cleanly. */
export async function stopSector(sector: Sector): Promise<string | null> {
  const exit = await sector.stop();
  return exit.code === 0 ? null : `${sector.name} exited with ${exit.signal ?? `code ${exit.code}`}:\n${sector.output()}`;
}

/** Copies a SQLite database file with its WAL, for a second Sector of its own. */
export function copyDatabase(file: string, copy: string): void {
  fs.copyFileSync(file, copy);
  for (const suffix of ['-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, copy + suffix);
  }
}
