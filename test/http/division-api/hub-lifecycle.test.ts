// Requests to the division's hub (contract §22) over an endorsement's life, through the API against
// the hub's stand-in: a solo posted with its end, shortened (delete, then post with the new end) and
// expired (the expiry worker's event deletes it); the examiner endorsement revoked removes the examiner;
// and while the hub fails or cannot be reached nothing is lost: afterwards each request
// arrives once, in commit order per member.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endorsementExpiryWorker } from '../../../src/features/endorsements/expiry.worker.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { startHubStandIn, type HubStandIn, hubEnv } from '../../support/division-hub-stand-in.js';
import { ADA, BO, buildDivision, buildPosition, buildTraining, buildUser } from '../../support/factories.js';

const CY = 1000003;
const DAN = 1000004;
const EVA = 1000005;
const DAY = 86_400_000;
const T0 = Date.parse('2026-06-01T12:00:00Z');
const cli = { kind: 'cli' } as const;
const hubTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describe("the division's hub over an endorsement's life", () => {
  let ctx: TestContext;
  let hub: HubStandIn;
  let key: string;
  let now = T0;

  const setNow = (ms: number) => {
    now = ms;
    ctx.setNow(ms);
  };
  const drain = async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 100; i++) if (!(await ctx.services.divisionApi!.run({ now: () => now, signal }))) return;
  };
  const endorse = async (body: object) => {
    const res = await ctx.request({ method: 'POST', url: '/api/endorsements', token: key, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const revoke = async (id: number) => {
    const res = await ctx.request({ method: 'DELETE', url: `/api/endorsements/${id}`, token: key });
    expect(res.statusCode, res.body).toBeLessThan(300);
  };
  const since = (from: number) => hub.requests.slice(from).map((r) => `${r.method} ${r.path}`);

  beforeAll(async () => {
    hub = await startHubStandIn();
    ctx = await createTestContext({
      now: T0,
      env: {
        ...hubEnv(hub),
        DIVISION_API_RETRY_BASE_MS: '1000',
        DIVISION_API_TIMEOUT_MS: '500',
      },
    });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: [
          buildUser(),
          buildUser({ id: BO, first_name: 'Bo', rating: 'S2' }),
          buildUser({ id: CY, first_name: 'Cy', rating: 'C1' }),
          buildUser({ id: DAN, first_name: 'Dan', rating: 'S2' }),
          buildUser({ id: EVA, first_name: 'Eva', rating: 'S3' }),
        ],
        positions: [buildPosition('EKCH_APP'), buildPosition('EKCH_TWR', { required_facility: 'EKCH TWR' })],
        trainings: [buildTraining({ user_id: BO, status: 2, ratings: ['S3'] })],
      }),
    );
    key = await ctx.key('edit');
    await drain(); // the hub starts from here
    await ctx.services.roles.grant(ADA, 'Administrator', null, cli);
    const tier = await ctx.request({ method: 'PUT', url: '/api/facilities/EKCH%20TWR', token: key, payload: { tier: 'T2' } });
    expect(tier.statusCode, tier.body).toBe(200);
  });
  afterAll(async () => {
    await ctx.close();
    await hub.close();
  });

  it('posts a solo with its end; shortened: deletes it and posts the new end; expired: deletes it', async () => {
    const ends = T0 + 14 * DAY;
    // Issuing asks the hub first whether Bo passed the S3 theory exam (hub-questions.test.ts).
    hub.results.push({ user_cid: BO, exam_id: 12, flag_exam_type: 3, passed: true, expiry: null });
    const id = await endorse({ user_id: BO, type: 'solo', positions: ['EKCH_APP'], valid_to: new Date(ends).toISOString() });
    expect(hub.requests.at(-1)).toMatchObject({ method: 'GET', path: `/facility/user/${BO}/exams` });
    const from = hub.requests.length;
    await drain();
    expect(hub.requests.slice(from)).toEqual([
      {
        method: 'POST',
        path: '/facility/endorsements/solo',
        body: { user_cid: BO, position: 'EKCH_APP', instructor_cid: ADA, expire_at: hubTime(ends) },
      },
    ]);
    expect(hub.solo).toMatchObject([{ user_cid: BO, position: 'EKCH_APP', expiry: hubTime(ends) }]);
    const first = hub.solo[0]!.id;

    const shorter = T0 + 3 * DAY;
    const cut = await ctx.request({
      method: 'PATCH',
      url: `/api/endorsements/${id}`,
      token: key,
      payload: { valid_to: new Date(shorter).toISOString() },
    });
    expect(cut.statusCode, cut.body).toBe(200);
    const before = hub.requests.length;
    await drain();
    expect(since(before)).toEqual([
      'GET /facility/endorsements/solo',
      `DELETE /facility/endorsements/solo/${first}`,
      'POST /facility/endorsements/solo',
    ]);
    expect(hub.requests.at(-1)!.body).toMatchObject({ user_cid: BO, position: 'EKCH_APP', expire_at: hubTime(shorter) });
    expect(hub.solo).toMatchObject([{ user_cid: BO, position: 'EKCH_APP', expiry: hubTime(shorter) }]);
    const second = hub.solo[0]!.id;

    // The end passes: the expiry worker publishes endorsement.expired, which deletes the hub's one.
    setNow(shorter + 1000);
    const quiet = { info() {}, warn() {}, error() {} };
    await endorsementExpiryWorker(ctx.services).run({
      now: () => now,
      signal: new AbortController().signal,
      log: quiet,
      lease: null,
      took() {},
    });
    const atExpiry = hub.requests.length;
    await drain();
    expect(since(atExpiry)).toEqual(['GET /facility/endorsements/solo', `DELETE /facility/endorsements/solo/${second}`]);
    expect(hub.solo).toEqual([]);
    expect((await ctx.services.divisionApi!.status()).pending).toEqual([]);
  });

  it('assigns an examiner rated S3 or above, and removes them when their active examiner endorsement is revoked', async () => {
    const from = hub.requests.length;
    const id = await endorse({ user_id: CY, type: 'examiner', rating: 'S3', areas: ['Denmark', 'Sweden'] });
    await drain();
    expect([...hub.examiners]).toEqual([CY]);
    await revoke(id);
    await drain();
    expect(hub.requests.slice(from)).toEqual([
      { method: 'POST', path: `/facility/training/assign/${CY}/examiner`, body: { user_cid: ADA } },
      { method: 'POST', path: `/facility/training/remove/${CY}/examiner`, body: { user_cid: ADA } },
    ]);
    expect(hub.examiners.size).toBe(0);
  });

  it('loses nothing while the hub fails, then cannot be reached: afterwards each request arrives once, in order per member', async () => {
    const from = hub.requests.length;
    hub.mode = 'fail';
    await ctx.services.roles.grant(DAN, 'Mentor', 'Denmark', cli);
    const tier = await endorse({ user_id: EVA, type: 'facility', rating: 'EKCH TWR' });
    await drain();
    hub.mode = 'unreachable';
    await endorse({ user_id: EVA, type: 'examiner', rating: 'S3', areas: ['Denmark'] });
    await ctx.services.roles.revoke(DAN, 'Mentor', 'Denmark', cli);
    await revoke(tier);
    for (let i = 0; i < 3; i++) {
      setNow(now + 10_000);
      await drain();
    }
    expect(since(from)).toEqual([]); // nothing answered while down
    const { pending } = await ctx.services.divisionApi!.status();
    expect(pending).toHaveLength(5);
    // The first of each member was tried (and failed) each time it was due; those after it wait their turn.
    expect(pending.map((p) => p.attempts > 0)).toEqual([true, true, false, false, false]);

    hub.mode = 'up';
    setNow(now + 3_600_000);
    await drain();
    const sent = since(from);
    expect(sent.filter((r) => r.includes(`/${DAN}/`))).toEqual([
      `POST /facility/training/assign/${DAN}/mentor`,
      `POST /facility/training/remove/${DAN}/mentor`,
    ]);
    // The create's last outcome was unknown (no connection): the hub's list is matched first.
    expect(sent.filter((r) => !r.includes(`/${DAN}/`))).toEqual([
      'GET /facility/endorsements/tier-2',
      'POST /facility/endorsements/tier-2',
      `POST /facility/training/assign/${EVA}/examiner`,
      'GET /facility/endorsements/tier-2',
      expect.stringMatching(/^DELETE \/facility\/endorsements\/tier-2\/\d+$/),
    ]);
    expect(hub.mentors.has(DAN)).toBe(false);
    expect([...hub.examiners]).toEqual([EVA]);
    expect(hub.tiers[2]).toEqual([]);
    expect(await ctx.services.divisionApi!.status()).toEqual({ pending: [], refused: [] });
  });
});
