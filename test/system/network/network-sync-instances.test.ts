// Two server instances on one PostgreSQL database share the pushes: each is made once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECT } from '../../support/context.js';
import { startNetworkStandIn, type NetworkStandIn } from '../../support/network-stand-in.js';
import { api, dateIn, eventually, NETWORK_KEY, networkStatus, prepareDivision } from '../../support/network-sync.js';
import { startServer, type ServerProcess } from '../../support/processes.js';

const COUNT = 24;

describe.runIf(TEST_DIALECT === 'postgres')('network sync with two instances on one PostgreSQL', { timeout: 180_000 }, () => {
  let network: NetworkStandIn;
  let a: ServerProcess;
  let b: ServerProcess;
  let env: Record<string, string>;
  let token: string;

  beforeAll(async () => {
    network = await startNetworkStandIn([{ token: NETWORK_KEY }]);
    ({ env, token } = await prepareDivision(network.url));
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await network.close();
  });

  it('makes each create, update and delete once, whichever instance took the change', async () => {
    // Slow responses keep pushes under way on both instances at once.
    network.setDelay(150);
    const positions = ['EKCH_TWR', 'EKCH_APP', 'EKDK_CTR'];
    const created = await Promise.all(
      Array.from({ length: COUNT }, (_, i) =>
        api((i % 2 ? a : b).url, token).create({
          cid: 1_200_001,
          date: dateIn(3 + Math.floor(i / 24)),
          start_at: `${i % 8}:00`,
          end_at: `${i % 8}:30`,
          position: positions[Math.floor(i / 8) % 3],
        }),
      ),
    );
    const networkIds = async () => Promise.all(created.map(async (x) => (await api(a.url, token).get(x.id)).network_booking));
    await eventually(async () => (await networkIds()).every((id) => id !== null), 'every create pushed', 90_000);
    expect(network.count('POST')).toBe(COUNT);
    expect(network.bookings.size).toBe(COUNT);
    expect(new Set(await networkIds()).size).toBe(COUNT);

    await Promise.all(created.map((x, i) => api((i % 2 ? b : a).url, token).update(x.id, { end_at: `${x.time_start.slice(11, 13)}:45` })));
    await eventually(() => [...network.bookings.values()].every((x) => x.end.endsWith(':45:00')), 'every update pushed', 90_000);
    expect(network.count('PUT')).toBe(COUNT);

    await Promise.all(created.map((x, i) => api((i % 2 ? a : b).url, token).remove(x.id)));
    await eventually(() => network.bookings.size === 0, 'every delete pushed', 90_000);
    // The stand-in forgets a booking before its slow response reaches the pusher, which then ends the
    // push: nothing is owed once every response is in.
    await eventually(async () => (await networkStatus(env)).length === 0, 'every push ended', 30_000);
    expect(network.count('DELETE')).toBe(COUNT);
    expect(network.count('POST')).toBe(COUNT);
    expect(network.count('PUT')).toBe(COUNT);
  });
});
