// A booking made on the members' page, against a server process: like an API booking it fires its
// webhook, is pushed to the network (a stand-in of its bookings service) and is audited as the
// member (docs/booking-pages.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDivision, buildPosition, buildUser } from '../../support/factories.js';
import { csrfOf, SIGN_IN_ENV, signInOnDatabase } from '../../support/members.js';
import { startNetworkStandIn, type NetworkStandIn } from '../../support/network-stand-in.js';
import { eventually, NETWORK_KEY, prepareDivision, ymdIn } from '../../support/network-sync.js';
import { runCli, startServer, type ServerProcess } from '../../support/processes.js';
import { addWebhook, startReceiver, type Receiver } from '../../support/webhooks.js';

const ASTRID = buildUser({
  id: 1_200_001,
  first_name: 'Astrid',
  last_name: 'Holm',
  rating: 'C1',
  subdivision: 'SCA',
  atc_active_areas: { Denmark: true },
});

describe('a booking made on the members page', { timeout: 120_000 }, () => {
  let network: NetworkStandIn;
  let receiver: Receiver;
  let server: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    network = await startNetworkStandIn([{ token: NETWORK_KEY, division: 'EUD' }]);
    receiver = await startReceiver();
    env = (
      await prepareDivision(network.url, { ...SIGN_IN_ENV }, buildDivision({ users: [ASTRID], positions: [buildPosition('EKCH_TWR')] }))
    ).env;
    await addWebhook(env, receiver.url);
    server = await startServer(env);
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
    await network.close();
  });

  it('fires its webhook, is pushed to the network and is audited as the member', async () => {
    const cookie = `sector_session=${await signInOnDatabase(env.DATABASE_URL!, ASTRID)}`;
    const form = await fetch(new URL('/bookings/new', server.url), { headers: { cookie } });
    expect(form.status).toBe(200);
    const body = new URLSearchParams({
      _csrf: csrfOf(await form.text()),
      position: 'EKCH_TWR',
      date: ymdIn(3),
      start_at: '10:00',
      end_at: '12:00',
      tag: '3',
    });
    const posted = await fetch(new URL('/bookings', server.url), {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    const id = Number(/id=(\d+)/.exec(posted.headers.get('location') ?? '')![1]);

    const [hook] = await receiver.waitFor(1);
    const event = JSON.parse(hook!.body) as { type: string; data: { id: number } };
    expect(event.type).toBe('booking.created');
    expect(JSON.stringify(event)).toContain(`"id":${id}`);

    const pushed = await eventually(() => [...network.bookings.values()].find((b) => b.callsign === 'EKCH_TWR'), 'the push to the network');
    expect(pushed).toMatchObject({ cid: 1_200_001, type: 'event', start: `${ymdIn(3)} 10:00:00`, end: `${ymdIn(3)} 12:00:00` });

    const audit = runCli(['audit', '--booking', String(id), '--json'], env);
    expect(audit.code, audit.stderr).toBe(0);
    const entries = audit.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toEqual([expect.objectContaining({ actor: 'member:1200001', actor_name: 'Astrid Holm', action: 'booking.created' })]);
  });
});
