// Network sync across restarts and crashes, with a rejected key, and for imported bookings.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, writeImportFile } from '../../support/context.js';
import { buildBooking } from '../../support/factories.js';
import { startNetworkStandIn, type NetworkStandIn } from '../../support/network-stand-in.js';
import {
  api,
  dateIn,
  DIVISION_FILE,
  eventually,
  logLines,
  NETWORK_KEY,
  networkStatus,
  prepareDivision,
  ymdIn,
} from '../../support/network-sync.js';
import { readDatabase } from '../../support/db-state.js';
import { runCliAsync, startServer, type ServerProcess } from '../../support/processes.js';

describe('network sync over restarts', { timeout: 120_000 }, () => {
  let network: NetworkStandIn | undefined;
  const servers: ServerProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const s = await startServer(env);
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    await network?.close();
  });

  it('pushes a create whose POST was under way when the server was SIGKILLed, once, after the restart', async () => {
    network = await startNetworkStandIn([{ token: NETWORK_KEY }]);
    // Requests time out after 1 s here, so the dead server's claim lapses within 2 s.
    const { env, token } = await prepareDivision(network.url, { NETWORK_TIMEOUT_MS: '1000' });
    const first = await start(env);
    // The network stores the booking at once but responds late: the server dies before the response.
    network.setDelay(5_000);
    const b = await api(first.url, token).create({
      cid: 1_200_001,
      date: dateIn(3),
      start_at: '10:00',
      end_at: '11:00',
      position: 'EKCH_TWR',
    });
    await eventually(() => network!.bookings.size === 1, 'the create on the network');
    await first.stop('SIGKILL');
    network.setDelay(0);

    const second = await start(env);
    const pushed = await eventually(async () => {
      const x = await api(second.url, token).get(b.id);
      return x.network_booking !== null && x;
    }, 'the network id after the restart');
    // It looked before posting again: one booking there, and the id is that one's.
    expect(network.count('POST')).toBe(1);
    expect(network.count('GET')).toBeGreaterThanOrEqual(1);
    expect([...network.bookings.keys()]).toEqual([Number(pushed.network_booking)]);
    expect(network.bookings.get(Number(pushed.network_booking))).toMatchObject({ callsign: 'EKCH_TWR', start: `${ymdIn(3)} 10:00:00` });
    await eventually(async () => (await networkStatus(env)).length === 0, 'nothing owed');
  });

  it('does not record the network id a POST got after another instance took its claim over', async () => {
    network = await startNetworkStandIn([{ token: NETWORK_KEY }]);
    const { env, token } = await prepareDivision(network.url, { NETWORK_TIMEOUT_MS: '10000' });
    const server = await start(env);
    // The network stores the booking at once and responds 2 s later.
    network.setDelay(2_000);
    const b = await api(server.url, token).create({
      cid: 1_200_001,
      date: dateIn(3),
      start_at: '10:00',
      end_at: '11:00',
      position: 'EKCH_TWR',
    });
    await eventually(() => network!.bookings.size === 1, 'the create on the network');
    // Meanwhile the claim passes to another instance, as when this one stalls past its lease.
    await readDatabase(env.DATABASE_URL!, (db) =>
      db
        .updateTable('network_pushes')
        .set({ lease_owner: 'another-instance', lease_until: Date.now() + 60_000 })
        .where('booking_id', '=', b.id)
        .execute(),
    );
    await eventually(
      async () => /sector_network_pushes_total\{outcome="done"\} 1\b/.test(await (await fetch(`${server.url}/metrics`)).text()),
      'the response to the POST',
    );
    // The booking is the other instance's to push now: this one's response changes nothing of it.
    expect((await api(server.url, token).get(b.id)).network_booking).toBeNull();
  });

  it('pushes changes committed while the network was down after a SIGKILL and a restart', async () => {
    network = await startNetworkStandIn([{ token: NETWORK_KEY }]);
    const { env, token } = await prepareDivision(network.url);
    await network.setMode('refuse');
    const first = await start(env);
    const client = api(first.url, token);
    const a = await client.create({ cid: 1_200_001, date: dateIn(4), start_at: '10:00', end_at: '11:00', position: 'EKCH_TWR' });
    const b = await client.create({ cid: 1_200_001, date: dateIn(4), start_at: '12:00', end_at: '13:00', position: 'EKCH_TWR' });
    await client.update(b.id, { end_at: '14:00' });
    await first.stop('SIGKILL');
    expect((await networkStatus(env)).map((s) => s.booking_id)).toEqual([a.id, b.id]);

    await network.setMode('up');
    const second = await start(env);
    await eventually(async () => {
      const all = await Promise.all([a, b].map((x) => api(second.url, token).get(x.id)));
      return all.every((x) => x.network_booking !== null);
    }, 'both pushed after the restart');
    expect(network.count('POST')).toBe(2);
    expect([...network.bookings.values()].map((x) => `${x.start}-${x.end}`).sort()).toEqual([
      `${ymdIn(4)} 10:00:00-${ymdIn(4)} 11:00:00`,
      `${ymdIn(4)} 12:00:00-${ymdIn(4)} 14:00:00`,
    ]);
  });

  it('keeps retrying while the network rejects the key, logs it as an error, and pushes once the key is fixed', async () => {
    network = await startNetworkStandIn([{ token: NETWORK_KEY }]);
    const { env, token } = await prepareDivision(network.url, { NETWORK_BOOKINGS_KEY: 'a-revoked-key' });
    const first = await start(env);
    const b = await api(first.url, token).create({
      cid: 1_200_001,
      date: dateIn(5),
      start_at: '10:00',
      end_at: '11:00',
      position: 'EKCH_TWR',
    });
    const rejected = await eventually(
      async () => (await networkStatus(env)).find((s) => s.booking_id === b.id && s.attempts >= 2),
      'two rejected attempts',
    );
    expect(rejected).toMatchObject({ status: 'pending', last_status: 401 });
    expect(rejected.last_error).toContain('Token does not exist');
    const line = logLines(first.logs(), 50).find((l) => l.booking === b.id)!;
    expect(line.msg).toContain('rejected NETWORK_BOOKINGS_KEY');
    expect(first.logs()).not.toContain('a-revoked-key');
    expect(network.bookings.size).toBe(0);
    await first.stop();

    const second = await start({ ...env, NETWORK_BOOKINGS_KEY: NETWORK_KEY });
    await eventually(async () => (await api(second.url, token).get(b.id)).network_booking !== null, 'the push with the right key');
    expect(network.bookings.size).toBe(1);
  });

  it('does not push imported bookings', async () => {
    network = await startNetworkStandIn([{ token: NETWORK_KEY }]);
    const imported = {
      ...DIVISION_FILE,
      bookings: [
        buildBooking({ user_id: 1_200_001, time_start: `${ymdIn(6)} 08:00:00`, time_end: `${ymdIn(6)} 09:00:00`, tag: null, source: 'CC' }),
      ],
    };
    const { env, token } = await prepareDivision(network.url, {}, imported);
    // An import into a running system is not pushed either.
    const more = writeImportFile(
      {
        bookings: [
          buildBooking({ user_id: 1_200_001, callsign: 'EKDK_CTR', time_start: `${ymdIn(6)} 08:00:00`, time_end: `${ymdIn(6)} 09:00:00` }),
        ],
      },
      'more.json',
    );
    const server = await start(env);
    expect((await runCliAsync(['import', more], env)).code).toBe(0);
    // A booking made through the API afterwards is pushed; the pusher takes due pushes oldest first.
    const b = await api(server.url, token).create({
      cid: 1_200_001,
      date: dateIn(6),
      start_at: '10:00',
      end_at: '11:00',
      position: 'EKCH_TWR',
    });
    await eventually(async () => (await api(server.url, token).get(b.id)).network_booking !== null, 'the API booking pushed');
    expect(network.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { start: string }).start)).toEqual([
      `${ymdIn(6)} 10:00:00`,
    ]);
    expect(await networkStatus(env)).toEqual([]);
  });

  it('refuses to start, and the CLI to run, with only one of NETWORK_BOOKINGS_URL and NETWORK_BOOKINGS_KEY', async () => {
    const dir = tempDir();
    const base = { DATABASE_URL: `sqlite:${path.join(dir, 'x.db')}` };
    for (const [env, missing] of [
      [{ ...base, NETWORK_BOOKINGS_URL: 'https://bookings.example/api' }, 'NETWORK_BOOKINGS_KEY is not'],
      [{ ...base, NETWORK_BOOKINGS_KEY: 'k' }, 'NETWORK_BOOKINGS_URL is not'],
      [
        { ...base, NETWORK_BOOKINGS_URL: 'ftp://bookings.example', NETWORK_BOOKINGS_KEY: 'k' },
        'NETWORK_BOOKINGS_URL must be an https: URL',
      ],
    ] as const) {
      const cli = await runCliAsync(['network:status'], env);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain(missing);
      expect(cli.stderr.trim().split('\n')).toHaveLength(1);
      await expect(startServer(env)).rejects.toThrow(missing);
    }
    expect(fs.existsSync(path.join(dir, 'x.db'))).toBe(false);
  });

  it('NETWORK_BOOKINGS_URL with http: on a host other than loopback is refused: the network key would travel in clear', async () => {
    const dir = tempDir();
    const base = { DATABASE_URL: `sqlite:${path.join(dir, 'x.db')}`, NETWORK_BOOKINGS_KEY: 'k' };
    for (const url of [
      'http://bookings.example/api',
      'http://10.0.0.5/api',
      'http://127.0.0.1.example/api',
      'https://user:s3cret@bookings.example/api',
    ]) {
      const cli = await runCliAsync(['network:status'], { ...base, NETWORK_BOOKINGS_URL: url });
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain(`NETWORK_BOOKINGS_URL must be an https: URL (http: only on 127.0.0.1, [::1] or localhost)`);
      expect(cli.stderr).not.toContain('s3cret');
      expect(cli.stderr.trim().split('\n')).toHaveLength(1);
    }
    await expect(startServer({ ...base, NETWORK_BOOKINGS_URL: 'http://bookings.example/api' })).rejects.toThrow('must be an https: URL');
    // Loopback stays open for local development and the tests' stand-ins.
    const loopback = await runCliAsync(['network:status', '--json'], { ...base, NETWORK_BOOKINGS_URL: 'http://127.0.0.1:9/api' });
    expect(loopback.stderr).not.toContain('must be an https');
    expect(loopback.code).toBe(0);
  });
});
