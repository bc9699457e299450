// `npm run demo` (docs/demo.md): the server over the demo division, with a one-click sign-in as a
// demo person. It must never become a way in on a real site (contract, details of §20–§25): it runs
// only on its own database file, sends nothing anywhere (mail, network push, the network's API, the
// data feed, webhooks), listens only on loopback and answers only requests made there
// (src/features/sign-in/demo-guard.plugin.ts).
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import type { Config } from '../config.js';
import { openDatabase } from '../core/db/connection.js';
import type { DemoData } from '../features/demo/division.js';
import { isLoopbackAddress } from '../core/web/loopback.js';
import { readRepositories } from './repositories.js';
import type { AppServices } from './services.js';

/** The demo could not start: one line for the terminal. */
export class DemoRefusal extends Error {}

/** The configuration with the demo's database and everything that reaches beyond this computer off. */
export function demoConfig(config: Config): Config {
  if (!config.demoDatabaseUrl.startsWith('sqlite:') || config.demoDatabaseUrl === 'sqlite::memory:')
    throw new DemoRefusal('npm run demo runs only on a SQLite file of its own (./data/demo.db)');
  const host = net.isIPv6(config.host) ? `[${config.host}]` : config.host;
  return {
    ...config,
    demo: true,
    databaseUrl: config.demoDatabaseUrl,
    mail: null,
    network: null,
    coreApi: { ...config.coreApi, key: null },
    dataFeed: null,
    signIn: null,
    trustProxy: false,
    publicUrl: `http://${host}:${config.port}`,
  };
}

/** Refuses a HOST that is, or resolves to, any address other than loopback (0.0.0.0 and :: included). */
export async function checkDemoHost(host: string): Promise<void> {
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new DemoRefusal(`npm run demo: HOST=${host} is not a name this computer can look up`);
  }
  const open = addresses.filter((a) => !isLoopbackAddress(a));
  if (open.length > 0 || addresses.length === 0)
    throw new DemoRefusal(
      `npm run demo listens only on this computer (HOST=127.0.0.1, ::1 or localhost); HOST=${host} would listen on ${open.join(', ') || 'nothing'}: refused`,
    );
}

/** Every address the server listens on is loopback, or the demo stops. */
export function checkDemoAddresses(addresses: ReadonlyArray<string | { address: string }>): void {
  const open = addresses.map((a) => (typeof a === 'string' ? a : a.address)).filter((a) => !isLoopbackAddress(a));
  if (open.length > 0) throw new DemoRefusal(`npm run demo listens only on loopback, not on ${open.join(', ')}: stopped`);
}

/** The demo division (seed 1), built only in demo mode: the generator is large and a normal start does not need it. */
export async function demoDivision(now: number): Promise<DemoData> {
  const { buildDemoDivision, DEFAULT_DEMO_SEED } = await import('../features/demo/division.js');
  return buildDemoDivision({ now, seed: DEFAULT_DEMO_SEED });
}

const othersRefused = (file: string) =>
  new DemoRefusal(
    `npm run demo runs only on its own database, and ${file} holds users who are not of the demo division; move that file away and start again`,
  );

/** Before anything is migrated: an existing file holding users other than the demo's is refused untouched. */
export async function checkDemoDatabase(url: string, data: DemoData): Promise<void> {
  const file = url.slice('sqlite:'.length);
  if (!fs.existsSync(file)) return;
  const db = openDatabase(url);
  let others: boolean;
  try {
    const division = readRepositories(db.kysely, db.dialect).divisionData;
    others = (await division.hasData()) && !(await division.holdsOnlyUsers(data.users.map((u) => u.id)));
  } catch {
    // No tables yet (or not a database at all: the start then says so).
    others = false;
  } finally {
    await db.close();
  }
  if (others) throw othersRefused(file);
}

/** Loads the demo division into an empty demo database; keeps one holding it; refuses one holding anyone else. */
export async function prepareDemoDatabase(services: AppServices, data: DemoData): Promise<'loaded' | 'kept'> {
  if (await services.imports.holdsDivisionData()) {
    if (await services.imports.holdsOnlyUsers(data.users.map((u) => u.id))) return 'kept';
    throw othersRefused(services.config.databaseUrl.slice('sqlite:'.length));
  }
  await services.imports.run(data, { intoEmptyDatabase: true, source: 'seed:demo' });
  return 'loaded';
}
