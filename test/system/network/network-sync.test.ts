// Network booking sync (docs/network-sync.md) against a stand-in of the network's bookings service:
// what is pushed for each change, what is stored back, and what the network refuses.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startNetworkStandIn, type NetworkStandIn } from '../../support/network-stand-in.js';
import { api, dateIn, eventually, logLines, NETWORK_KEY, networkStatus, prepareDivision, ymdIn } from '../../support/network-sync.js';
import { runCliAsync, startServer, type ServerProcess } from '../../support/processes.js';

// Generous limits: each test runs servers and CLI processes, on a machine that may be busy.
describe('network booking sync', { timeout: 120_000 }, () => {
  let network: NetworkStandIn;
  let server: ServerProcess;
  let env: Record<string, string>;
  let client: ReturnType<typeof api>;
  let token: string;

  beforeAll(async () => {
    network = await startNetworkStandIn([{ token: NETWORK_KEY, division: 'EUD' }, { token: 'another-division' }]);
    const prepared = await prepareDivision(network.url);
    env = prepared.env;
    server = await startServer(env);
    client = api(server.url, prepared.token);
    token = prepared.token;
  });
  afterAll(async () => {
    await server.stop();
    await network.close();
  });
  afterEach(async () => {
    network.setDelay(0);
    await network.setMode('up');
  });

  it('pushes a create, stores the network id as network_booking without changing updated_at, then pushes the update and the delete', async () => {
    const created = await client.create({
      cid: 1_200_001,
      date: dateIn(3),
      start_at: '10:00',
      end_at: '12:30',
      position: 'EKCH_TWR',
      tag: 2,
    });
    expect(created.network_booking).toBeNull();

    const pushed = await eventually(async () => {
      const b = await client.get(created.id);
      return b.network_booking !== null && b;
    }, 'the network id');
    expect(pushed.updated_at).toBe(created.updated_at);
    const stored = network.bookings.get(Number(pushed.network_booking))!;
    expect(stored).toMatchObject({
      callsign: 'EKCH_TWR',
      cid: 1_200_001,
      type: 'exam',
      start: `${ymdIn(3)} 10:00:00`,
      end: `${ymdIn(3)} 12:30:00`,
      division: 'EUD',
      subdivision: 'SCA',
    });
    const post = network.requests.find((r) => r.method === 'POST')!;
    expect(post.authorization).toBe(`Bearer ${NETWORK_KEY}`);
    expect(post.body).toEqual({
      callsign: 'EKCH_TWR',
      cid: 1_200_001,
      type: 'exam',
      start: `${ymdIn(3)} 10:00:00`,
      end: `${ymdIn(3)} 12:30:00`,
      division: 'EUD',
      subdivision: 'SCA',
    });
    expect(await networkStatus(env)).toEqual([]);

    const puts = network.count('PUT');
    await client.update(created.id, { end_at: '13:00', tag: 3 });
    await eventually(() => stored.end === `${ymdIn(3)} 13:00:00` && stored.type === 'event', 'the update on the network');
    expect(network.count('PUT')).toBe(puts + 1);
    const put = network.requests.filter((r) => r.method === 'PUT').at(-1)!;
    expect(put.path).toBe(`/api/booking/${pushed.network_booking}`);
    expect(put.body).toMatchObject({ start: `${ymdIn(3)} 10:00:00`, end: `${ymdIn(3)} 13:00:00`, type: 'event' });

    await client.remove(created.id);
    await eventually(() => !network.bookings.has(stored.id), 'the delete on the network');
    expect(network.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([`/api/booking/${stored.id}`]);
    // The deleted booking keeps the id it had on the network.
    expect((await client.get(created.id)).network_booking).toBe(pushed.network_booking);
  });

  it('sends forced training as type training, and chosen training too', async () => {
    // Bo is S1 below EKCH_APP's S3: training is forced.
    const forced = await client.create({ cid: 1_200_002, date: dateIn(4), start_at: '08:00', end_at: '09:00', position: 'EKCH_APP' });
    const chosen = await client.create({
      cid: 1_200_001,
      date: dateIn(4),
      start_at: '08:00',
      end_at: '09:00',
      position: 'EKDK_CTR',
      tag: 1,
    });
    const plain = await client.create({ cid: 1_200_001, date: dateIn(4), start_at: '10:00', end_at: '11:00', position: 'EKDK_CTR' });
    const ids = await eventually(async () => {
      const all = await Promise.all([forced, chosen, plain].map((b) => client.get(b.id)));
      return all.every((b) => b.network_booking !== null) && all.map((b) => Number(b.network_booking));
    }, 'three pushes');
    expect(ids.map((id) => network.bookings.get(id)!.type)).toEqual(['training', 'training', 'booking']);
  });

  it('pushes every booking of a batch, as it pushes a create', async () => {
    const before = network.count('POST');
    const res = await fetch(`${server.url}/api/bookings/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        bookings: [
          { cid: 1_200_001, date: dateIn(9), start_at: '17:00', end_at: '19:00', position: 'EKCH_TWR', tag: 3 },
          { cid: 1_200_002, date: dateIn(9), start_at: '17:00', end_at: '19:00', position: 'EKCH_APP' },
        ],
      }),
    });
    expect(res.status).toBe(201);
    const { bookings } = (await res.json()) as { bookings: Array<{ id: number }> };
    const ids = await eventually(async () => {
      const all = await Promise.all(bookings.map((b) => client.get(b.id)));
      return all.every((b) => b.network_booking !== null) && all.map((b) => Number(b.network_booking));
    }, 'both pushes');
    expect(ids.map((id) => [network.bookings.get(id)!.callsign, network.bookings.get(id)!.type])).toEqual([
      ['EKCH_TWR', 'event'],
      ['EKCH_APP', 'training'],
    ]);
    expect(network.count('POST')).toBe(before + 2);
  });

  it('pushes an update made while the create is still on its way as part of it, and a delete after it, in order', async () => {
    network.setDelay(700);
    const b = await client.create({ cid: 1_200_001, date: dateIn(5), start_at: '14:00', end_at: '15:00', position: 'EKDK_CTR' });
    await eventually(
      () => network.requests.some((r) => r.method === 'POST' && (r.body as { start?: string }).start === `${ymdIn(5)} 14:00:00`),
      'the create on the wire',
    );
    await client.update(b.id, { end_at: '16:00' });
    await client.remove(b.id);
    const pushed = await eventually(async () => {
      const x = await client.get(b.id);
      return x.network_booking !== null && (await networkStatus(env)).length === 0 && x;
    }, 'the delete on the network');
    const networkId = Number(pushed.network_booking);
    expect(network.bookings.has(networkId)).toBe(false);
    const mine = network.requests.filter(
      (r) =>
        r.path.endsWith(`/booking/${networkId}`) ||
        (r.method === 'POST' && (r.body as { start?: string }).start === `${ymdIn(5)} 14:00:00`),
    );
    // Create, then delete: never the delete first, and nothing after it.
    expect(mine[0]!.method).toBe('POST');
    expect(mine.at(-1)!.method).toBe('DELETE');
    expect(mine.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('sends nothing for a booking deleted before it was ever pushed', async () => {
    await network.setMode('refuse');
    const b = await client.create({ cid: 1_200_001, date: dateIn(6), start_at: '06:00', end_at: '07:00', position: 'EKCH_TWR' });
    await eventually(
      async () => (await networkStatus(env)).some((s) => s.booking_id === b.id && s.attempts >= 1 && s.last_error !== null),
      'a failed attempt',
    );
    await client.remove(b.id);
    await network.setMode('up');
    await eventually(async () => (await networkStatus(env)).length === 0, 'nothing owed');
    expect(network.requests.some((r) => (r.body as { start?: string }).start === `${ymdIn(6)} 06:00:00`)).toBe(false);
  });

  it('retries while the network is down or failing, and pushes once it is back', async () => {
    await network.setMode('refuse');
    const b = await client.create({ cid: 1_200_001, date: dateIn(7), start_at: '10:00', end_at: '11:00', position: 'EKCH_TWR' });
    // Attempts are counted when claimed, and the first may go out on a kept-alive connection the
    // stand-in has just dropped (a reset): wait for a recorded refusal after at least two attempts.
    const failing = await eventually(
      async () =>
        (await networkStatus(env)).find((s) => s.booking_id === b.id && s.attempts >= 2 && /ECONNREFUSED/.test(s.last_error ?? '')),
      'two attempts, the connection refused',
    );
    expect(failing).toMatchObject({ status: 'pending', callsign: 'EKCH_TWR', last_status: null });
    expect(failing.last_error).toMatch(/ECONNREFUSED/);
    expect((await runCliAsync(['network:status'], env)).stdout).toMatch(new RegExp(`^${b.id}\\s+EKCH_TWR\\s+(pending|sending)`, 'm'));

    await network.setMode('unavailable');
    await eventually(async () => (await networkStatus(env)).find((s) => s.booking_id === b.id && s.last_status === 503), 'a 503');
    const posts = network.count('POST');
    await network.setMode('up');
    const pushed = await eventually(async () => {
      const x = await client.get(b.id);
      return x.network_booking !== null && x;
    }, 'the push after the network came back');
    expect(network.bookings.get(Number(pushed.network_booking))!.start).toBe(`${ymdIn(7)} 10:00:00`);
    // The 503s stored nothing there; after them, one create (and perhaps a look for an earlier one).
    expect(network.count('POST') - posts).toBe(1);
    expect([...network.bookings.values()].filter((x) => x.start === `${ymdIn(7)} 10:00:00`)).toHaveLength(1);
  });

  it('records a refusal with the network message, logs it at warn, and pushes it again on network:retry', async () => {
    const atis = await client.create({ cid: 1_200_001, date: dateIn(8), start_at: '10:00', end_at: '11:00', position: 'EKCH_ATIS' });
    const refused = await eventually(
      async () => (await networkStatus(env)).find((s) => s.booking_id === atis.id && s.status === 'refused'),
      'the refusal',
    );
    expect(refused).toMatchObject({ callsign: 'EKCH_ATIS', last_status: 422, next_attempt_at: null });
    expect(refused.last_error).toContain('callsign: The callsign must end with one of the following');
    const warned = await eventually(() => logLines(server.logs(), 40).find((l) => l.booking === atis.id), 'the warn line');
    expect(warned.level).toBe(40);
    expect(warned.msg).toContain('refused');
    expect(server.logs()).not.toContain(NETWORK_KEY);
    const posts = network.count('POST');
    await new Promise((r) => setTimeout(r, 500)); // several retry periods: a refusal is not retried by itself
    expect(network.count('POST')).toBe(posts);

    // An overlap on the network's side (another division's booking there): refused, then fixed there.
    const other = {
      id: 9000,
      api_key_id: 2,
      callsign: 'EKDK_CTR',
      cid: 1,
      type: 'booking',
      start: `${ymdIn(8)} 09:00:00`,
      end: `${ymdIn(8)} 12:00:00`,
      division: null,
      subdivision: null,
    };
    network.bookings.set(other.id, other);
    const clash = await client.create({ cid: 1_200_001, date: dateIn(8), start_at: '10:00', end_at: '11:00', position: 'EKDK_CTR' });
    const overlap = await eventually(
      async () => (await networkStatus(env)).find((s) => s.booking_id === clash.id && s.status === 'refused'),
      'the overlap refusal',
    );
    expect(overlap.last_error).toContain('Booking overlaps with an existing booking: 9000');
    const text = await runCliAsync(['network:status'], env);
    expect(text.stdout).toMatch(new RegExp(`^${clash.id}\\s+EKDK_CTR\\s+refused\\s+1\\s+-\\s+HTTP 422`, 'm'));

    network.bookings.delete(other.id);
    const retried = await runCliAsync(['network:retry', String(clash.id)], env);
    expect(retried.code, retried.stderr).toBe(0);
    await eventually(async () => (await client.get(clash.id)).network_booking !== null, 'the push after network:retry');
    expect((await networkStatus(env)).map((s) => s.booking_id)).toEqual([atis.id]);

    // Retrying what is not refused is a one-line error.
    for (const [ref, message] of [
      [String(clash.id), 'already pushed'],
      ['999999', 'has no push'],
      ['abc', 'positive whole number'],
    ]) {
      const r = await runCliAsync(['network:retry', ref!], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
