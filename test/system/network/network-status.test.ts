// What network:status and /metrics tell an operator: that sync is off when it is, what failed
// where when the network cannot be reached or responds with an error, and how long the oldest push
// has been waiting.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { api, dateIn, eventually, prepareDivision } from '../../support/network-sync.js';
import { startNetworkStandIn } from '../../support/network-stand-in.js';
import { runCliAsync, startServer } from '../../support/processes.js';

const SLOW_MS = 180_000;

/** An address where nothing listens: a port just given up. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function oldestPendingAge(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^sector_network_oldest_pending_push_age_seconds (\S+)$/m.exec(text);
  expect(m, 'the metric is exported').not.toBeNull();
  return Number(m![1]);
}

/** A booking through the API, which the server then pushes to the network. */
function bookTower(serverUrl: string, token: string) {
  return api(serverUrl, token).create({ cid: 1_200_001, date: dateIn(4), start_at: '10:00', end_at: '11:00', position: 'EKCH_TWR' });
}

describe('network:status', { timeout: SLOW_MS }, () => {
  it('says that sync is off when it is, never that nothing is owed', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const human = await runCliAsync(['network:status'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(
      'Network sync is off: NETWORK_BOOKINGS_URL and NETWORK_BOOKINGS_KEY are not set here, so nothing is pushed to the network (see docs/network-sync.md).\n',
    );
    const json = await runCliAsync(['network:status', '--json'], env);
    expect(json.stdout).toBe('[]\n');
    expect(json.stderr).toMatch(/^Network sync is off: /);
  });

  it('names the request that failed and where, says what to do, and exports how long the oldest push has waited', async () => {
    const port = await closedPort();
    const networkUrl = `http://127.0.0.1:${port}/api`;
    const { env, token } = await prepareDivision(networkUrl);
    const server = await startServer(env);
    try {
      expect(await oldestPendingAge(server.url)).toBe(0);
      const b = await bookTower(server.url, token);
      // Waited for in this process: network:status itself runs below.
      const failing = await eventually(
        () =>
          readDatabase(env.DATABASE_URL!, (db) =>
            db
              .selectFrom('network_pushes')
              .selectAll()
              .where('booking_id', '=', b.id)
              .where('status', 'in', ['pending', 'refused'])
              .where('attempts', '>=', 1)
              .where('last_error', 'is not', null)
              .executeTakeFirst(),
          ),
        'a failed attempt',
      );
      expect(failing.last_error).toMatch(
        new RegExp(`^(looking for an earlier create: )?(POST|GET) ${networkUrl}/booking: connection refused \\(ECONNREFUSED\\)$`),
      );

      const human = await runCliAsync(['network:status'], env);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(`${networkUrl}/booking: connection refused (ECONNREFUSED)`);
      expect(human.stdout).toMatch(/^1 pending, 0 refused$/m);
      expect(human.stderr).toContain(
        `The network could not be reached at ${networkUrl}: check that NETWORK_BOOKINGS_URL is right and reachable from the server's host`,
      );

      // The push stays pending (retried without limit): its age grows, which is what to alert on.
      await eventually(async () => (await oldestPendingAge(server.url)) > 0, 'a pending push older than zero');
    } finally {
      await server.stop();
    }
  });

  it('names the host it could not find in the last error of a push and in network:status', async () => {
    // .invalid never resolves (RFC 6761): the look-up fails with ENOTFOUND.
    const networkUrl = 'https://nonexistent.invalid/api';
    const { env, token } = await prepareDivision(networkUrl);
    const server = await startServer(env);
    try {
      const b = await bookTower(server.url, token);
      await eventually(
        () =>
          readDatabase(env.DATABASE_URL!, (db) =>
            db
              .selectFrom('network_pushes')
              .select('booking_id')
              .where('booking_id', '=', b.id)
              .where('attempts', '>=', 1)
              .where('last_error', 'is not', null)
              .executeTakeFirst(),
          ),
        'a failed attempt',
      );
      const human = await runCliAsync(['network:status'], env);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/ (POST|GET) https:\/\/nonexistent\.invalid\/api\/booking: host name not found \(ENOTFOUND\)$/m);
      const json = await runCliAsync(['network:status', '--json'], env);
      expect((JSON.parse(json.stdout) as Array<{ last_error: string }>)[0]!.last_error).toMatch(
        /^(looking for an earlier create: )?(POST|GET) https:\/\/nonexistent\.invalid\/api\/booking: host name not found \(ENOTFOUND\)$/,
      );
    } finally {
      await server.stop();
    }
  });

  it('names where the network is when it responds with an error: one that may pass, then a refused key', async () => {
    const network = await startNetworkStandIn();
    await network.setMode('unavailable');
    const { env, token } = await prepareDivision(network.url);
    const server = await startServer(env);
    const lastStatus = (bookingId: number, status: number) =>
      eventually(
        () =>
          readDatabase(env.DATABASE_URL!, (db) =>
            db
              .selectFrom('network_pushes')
              .select('last_status')
              .where('booking_id', '=', bookingId)
              .where('status', '=', 'pending')
              .where('last_status', '=', status)
              .executeTakeFirst(),
          ),
        `an attempt got ${status}`,
      );
    try {
      const b = await bookTower(server.url, token);
      await lastStatus(b.id, 503);
      const passing = await runCliAsync(['network:status'], env);
      expect(passing.code).toBe(0);
      expect(passing.stderr).toContain(
        `The network at ${network.url} responded with an error that may pass: the server retries with backoff`,
      );

      // Up again, but the division's key is not one it knows.
      await network.setMode('up');
      await lastStatus(b.id, 401);
      const refused = await runCliAsync(['network:status'], env);
      expect(refused.code).toBe(0);
      expect(refused.stderr).toContain(`The network at ${network.url} refuses the key: check NETWORK_BOOKINGS_KEY with the network`);
    } finally {
      await server.stop();
      await network.close();
    }
  });

  it('says what it pushes to when nothing is owed', async () => {
    const port = await closedPort();
    const { env } = await prepareDivision(`http://127.0.0.1:${port}/api`);
    const human = await runCliAsync(['network:status'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(
      `Nothing pending for the network (http://127.0.0.1:${port}/api): every change made through the API has been pushed.\n`,
    );
  });
});
