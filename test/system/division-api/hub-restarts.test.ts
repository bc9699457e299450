// The division's hub (contract §22) over a crash: a server process SIGKILLed while a create is under
// way (the hub acted, its answer never came) loses nothing, and after the restart the list-and-match
// step keeps the create from making a second record; what was owed behind it arrives once, in order.
import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { startHubStandIn, type HubStandIn, hubEnv } from '../../support/division-hub-stand-in.js';
import { ADA, BO, buildDivision, buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { eventually } from '../../support/network-sync.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { createKey, importData } from '../../support/seed.js';

const CY = 1000003;

describe("the division's hub over a crash", { timeout: 120_000 }, () => {
  let hub: HubStandIn | undefined;
  const servers: ServerProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const s = await startServer(env);
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    await hub?.close();
  });

  it('sends a create under way at a SIGKILL once after the restart, matching the record the hub already made', async () => {
    hub = await startHubStandIn();
    const env = {
      DATABASE_URL: freshDatabaseUrl(),
      DIVISION: 'EUD',
      ...hubEnv(hub),
      // A request gives up after 1 s; the dead server's lease (3 timeouts + 5 s) lapses within 8 s.
      DIVISION_API_TIMEOUT_MS: '1000',
      DIVISION_API_RETRY_BASE_MS: '100',
    };
    await importData(
      env,
      buildDivision({
        users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', rating: 'S2' }), buildUser({ id: CY, first_name: 'Cy', rating: 'S3' })],
        positions: [buildPosition('EKCH_TWR', { required_facility: 'EKCH TWR' })],
        roles: [buildRole({ user_id: ADA, area: null, role: 'Administrator' })],
      }),
    );
    const token = await createKey(env, 'edit');
    const first = await start(env);
    const call = async (url: string, method: string, body: object) => {
      const res = await fetch(`${first.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
    };
    // The hub is taken to start once the worker has run (events before that are not the hub's).
    await eventually(
      () =>
        readDatabase(
          env.DATABASE_URL,
          async (db) => (await db.selectFrom('outbox_cursors').select('seq').where('name', '=', 'division').execute()).length > 0,
        ),
      'the hub cursor',
    );
    await call('/api/facilities/EKCH%20TWR', 'PUT', { tier: 'T1' });

    // The hub acts on writes but never answers; the server dies while the first create waits.
    hub.actThenHang = true;
    await call('/api/endorsements', 'POST', { user_id: BO, type: 'facility', rating: 'EKCH TWR' });
    await call('/api/endorsements', 'POST', { user_id: CY, type: 'examiner', rating: 'S3', areas: ['Denmark'] });
    await call('/api/endorsements', 'POST', { user_id: BO, type: 'examiner', rating: 'S2', areas: ['Denmark'] });
    await eventually(() => hub!.tiers[1].length === 1, 'the create on the hub');
    await first.stop('SIGKILL');
    hub.actThenHang = false;
    const before = hub.requests.length;

    await start(env);
    await eventually(
      () =>
        readDatabase(env.DATABASE_URL, async (db) => {
          const rows = await db.selectFrom('division_requests').select('state').execute();
          return rows.length === 2 && rows.every((r) => r.state === 'sent');
        }),
      'every request sent',
    );
    // One record on the hub: the restart listed the hub's records and found it there.
    expect(hub.tiers[1]).toMatchObject([{ user_cid: BO, position: 'EKCH TWR', instructor_cid: ADA }]);
    const after = hub.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(after.filter((r) => r.includes('tier-1'))).toEqual(['GET /facility/endorsements/tier-1']);
    // The examiner (rated S3) after it, once; BO (S2) is no examiner for the hub.
    expect(after.filter((r) => !r.includes('tier-1'))).toEqual([`POST /facility/training/assign/${CY}/examiner`]);
    expect([...hub.examiners]).toEqual([CY]);
  });
});
