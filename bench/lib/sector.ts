// Sector under measurement: its own process, from dist/, on 127.0.0.1, request logging off. A
// second Sector with everything configured that writes fan out to — webhooks, network sync (and
// the audit log, always on) — can be paused between its rounds so that its background work never
// runs during another side's.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { exchange } from './http.js';
import { ROOT, freePort, startNode, waitUntil, type NodeProcess } from './processes.js';
import { openDatabase } from '../../src/db/connection.js';
import { servicesOver } from '../../test/support/seed.js';
import { startNetworkStandIn, type NetworkStandIn } from '../../test/support/network-stand-in.js';

const PROFILE_DIR = path.join(ROOT, 'bench/profiles');

export type Sector = NodeProcess & { port: number; profileFile: string | null; pause(): void; resume(): void };

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
      if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
    },
    { process: sector },
  );
  let paused = false;
  return {
    ...sector,
    port,
    profileFile,
    pause() {
      if (!paused) sector.child.kill('SIGSTOP');
      paused = true;
    },
    resume() {
      if (paused) sector.child.kill('SIGCONT');
      paused = false;
    },
    async stop(graceMs?: number) {
      if (paused) sector.child.kill('SIGCONT');
      paused = false;
      return sector.stop(graceMs);
    },
  };
}

/** Stops Sector; returns its output when it did not exit cleanly. */
export async function stopSector(sector: Sector): Promise<string | null> {
  const exit = await sector.stop();
  return exit.code === 0 ? null : `${sector.name} exited with ${exit.signal ?? `code ${exit.code}`}:\n${sector.output()}`;
}

/** A receiver that answers every delivery at once, counting them. */
async function startReceiver(): Promise<{ url: string; deliveries: () => number; close: () => void }> {
  let deliveries = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/bench`, deliveries: () => deliveries, close: () => server.close() };
}

/** Copies a SQLite database file with its WAL, for a second Sector of its own. */
export function copyDatabase(file: string, copy: string): void {
  fs.copyFileSync(file, copy);
  for (const suffix of ['-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, copy + suffix);
  }
}

export interface Fanout {
  /** Sector's settings for network sync. */
  env: Record<string, string>;
  network: NetworkStandIn;
  deliveries(): number;
  close(): Promise<void>;
}

/**
 * Everything a booking write can fan out to, on the database at `databaseUrl`: a webhook
 * subscription to a receiver answering at once, and a stand-in of the network's bookings service
 * answering after `networkDelayMs`. Both live in this process.
 */
export async function startFanout(databaseUrl: string, networkDelayMs = 0): Promise<Fanout> {
  const receiver = await startReceiver();
  const db = openDatabase(databaseUrl);
  try {
    await servicesOver(db, databaseUrl).webhooks.add(receiver.url, null);
  } finally {
    await db.close();
  }
  const key = 'bench-network-key';
  const network = await startNetworkStandIn([{ token: key }]);
  network.setDelay(networkDelayMs);
  return {
    env: { NETWORK_BOOKINGS_URL: network.url, NETWORK_BOOKINGS_KEY: key },
    network,
    deliveries: receiver.deliveries,
    async close() {
      receiver.close();
      await network.close();
    },
  };
}
