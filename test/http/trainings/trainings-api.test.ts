// Trainings through the API (contract §18): created by staff for anyone, moved by the transition
// rule (an illegal move is 409 naming both statuses), mentors, reports with drafts hidden,
// examinations by an examiner, the timeline, completion endorsing in the same transaction, and
// the users API following every change at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildDivision, buildEndorsement, buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12);
const DAY = 86_400_000;
const CY = 1000003;
const DI = 1000007;
const MO = 1000004;
const EX = 1000005;

describe('trainings through the API', () => {
  let ctx: TestContext;
  let edit: string;
  let read: string;
  const create = (payload: object) => ctx.request({ method: 'POST', url: '/api/trainings', token: edit, payload });
  const patch = (id: number, payload: object) => ctx.request({ method: 'PATCH', url: `/api/trainings/${id}`, token: edit, payload });
  const detail = async (id: number) => (await ctx.request({ method: 'GET', url: `/api/trainings/${id}`, token: read })).json();
  const eventTypes = async () =>
    (await ctx.services.db.kysely.selectFrom('events').select('type').where('type', 'like', 'training.%').orderBy('seq').execute()).map(
      (e) => e.type,
    );
  const usersTraining = async (cid: number) =>
    (await ctx.request({ method: 'GET', url: '/api/users?include[]=allUsers&include[]=training', token: read }))
      .json()
      .find((u: { id: number }) => u.id === cid).training;

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: [
          buildUser({ rating: 'S1' }),
          buildUser({ id: BO, first_name: 'Bo', rating: 'S2' }),
          buildUser({ id: CY, first_name: 'Cy', rating: 'S2' }),
          buildUser({ id: MO, first_name: 'Mo', rating: 'C1' }),
          buildUser({ id: EX, first_name: 'Ex', rating: 'C3' }),
          buildUser({ id: DI, first_name: 'Di', rating: 'S2' }),
        ],
        positions: [
          buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }),
          buildPosition('EKCH_APP'),
          buildPosition('ESSA_TWR', { required_facility: 'T1 ESSA TWR' }),
        ],
        roles: [buildRole({ user_id: MO, area: 'Denmark', role: 'Mentor' })],
        endorsements: [
          buildEndorsement({ user_id: EX, type: 'examiner', rating: 'S3', areas: ['Denmark'] }),
          buildEndorsement({ user_id: CY, type: 'facility', rating: 'T1 EKCH TWR', valid_from: '2025-01-01T00:00:00Z' }),
        ],
      }),
    );
    edit = await ctx.key('edit');
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  it('creates a training In queue with its event, audit entry and timeline; the users API shows it in the seed shape', async () => {
    const res = await create({ user_id: ADA, area: 'denmark', ratings: ['S2'], motivation: 'Wants to learn', experience: 2 });
    expect(res.statusCode).toBe(201);
    const t = res.json();
    expect(t).toEqual({
      id: expect.any(Number),
      user_id: ADA,
      area: 'Denmark',
      type: 'Standard',
      status: 0,
      status_description: 'In queue',
      ratings: ['S2'],
      created_at: '2026-03-10T12:00:00.000000Z',
      started_at: null,
      closed_at: null,
      closed_reason: null,
      paused: false,
      mentors: [],
      motivation: 'Wants to learn',
      experience: 2,
      english_only: false,
    });
    expect(res.headers.location).toBe(`/api/trainings/${t.id}`);
    expect(await eventTypes()).toEqual(['training.created']);
    const audit = await ctx.services.audit.read({ target: `training:${t.id}` });
    expect(audit[0]).toMatchObject({ action: 'training.created', actor: expect.stringMatching(/^key:/) });
    expect((await detail(t.id)).timeline).toEqual([expect.objectContaining({ action: 'created', actor: expect.stringMatching(/^key:/) })]);
    expect(await usersTraining(ADA)).toEqual([expect.objectContaining({ area: 'Denmark', status: 0, type: 'Standard' })]);
  });

  it('refuses bad input with 422 per field and changes nothing', async () => {
    const res = await create({ user_id: 1999999, area: 'Atlantis', type: 'Crash', ratings: ['ZZ'], experience: 9 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['experience']);
    const res2 = await create({ user_id: 1999999, area: 'Atlantis', type: 'Crash', ratings: ['ZZ'] });
    expect(res2.statusCode).toBe(422);
    expect(Object.keys(res2.json().errors).sort()).toEqual(['area', 'ratings', 'type', 'user_id']);
    expect((await ctx.request({ method: 'GET', url: '/api/trainings', token: read })).json().data).toHaveLength(1);
  });

  it('moves by the rule: leaving the queue sets started_at, back to 0 clears it; -2 needs a reason; closed cannot reopen (409 naming both)', async () => {
    const { id } = (await create({ user_id: BO, area: 'Denmark', ratings: ['S3'] })).json();
    ctx.setNow(NOW + DAY);
    expect((await patch(id, { status: 2 })).json()).toMatchObject({ status: 2, started_at: '2026-03-11T12:00:00.000000Z' });
    expect((await patch(id, { status: 0 })).json()).toMatchObject({ status: 0, started_at: null });
    for (const status of [-3, -4]) {
      const r = await patch(id, { status });
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toContain(`In queue (0)`);
    }
    const noReason = await patch(id, { status: -2 });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors.closed_reason).toBeDefined();
    const closed = await patch(id, { status: -2, closed_reason: 'Left the division' });
    expect(closed.json()).toMatchObject({ status: -2, closed_at: '2026-03-11T12:00:00.000000Z', closed_reason: 'Left the division' });
    const reopen = await patch(id, { status: '1' });
    expect(reopen.statusCode).toBe(409);
    expect(reopen.json().message).toBe(
      'A training cannot move from Closed by staff (-2) to Pre-training (1): a closed training cannot be reopened.',
    );
    expect((await detail(id)).timeline.map((e: { action: string }) => e.action)).toEqual(['created', 'status', 'status', 'status']);
    ctx.setNow(NOW);
  });

  it('assigns mentors holding Mentor or higher in the area only', async () => {
    const { id } = (await create({ user_id: CY, area: 'Denmark', ratings: ['S3'], status: 1 })).json();
    const refused = await patch(id, { mentors: [MO, BO] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.mentors[0]).toContain(String(BO));
    expect((await patch(id, { mentors: [MO] })).json().mentors).toEqual([MO]);
    expect((await patch(id, { paused: true })).json().paused).toBe(true);
    expect((await patch(id, { paused: 'false' })).json().paused).toBe(false);
  });

  it('keeps draft reports from the student and from events; records examinations by an examiner only', async () => {
    const { id } = (await create({ user_id: CY, area: 'Sweden', ratings: ['S3'], status: 2 })).json();
    const base = `/api/trainings/${id}`;
    const draft = await ctx.request({
      method: 'POST',
      url: `${base}/reports`,
      token: edit,
      payload: { report_date: '2026-03-09', content: 'Not yet', draft: true },
    });
    expect(draft.statusCode).toBe(201);
    expect(draft.json()).toMatchObject({ draft: true, training_id: id });
    const published = await ctx.request({
      method: 'POST',
      url: `${base}/reports`,
      token: edit,
      payload: { report_date: '2026-03-10', content: '**Good** session', position: 'essa_twr' },
    });
    expect(published.json()).toMatchObject({ draft: false, position: 'ESSA_TWR' });
    const badDate = await ctx.request({
      method: 'POST',
      url: `${base}/reports`,
      token: edit,
      payload: { report_date: '2026-02-30', content: 'x' },
    });
    expect(badDate.statusCode).toBe(422);

    const notExaminer = await ctx.request({
      method: 'POST',
      url: `${base}/examinations`,
      token: edit,
      payload: { examination_date: '2026-03-12', position: 'ESSA_TWR', examiner_id: EX, result: 'PASSED' },
    });
    expect(notExaminer.statusCode).toBe(422);
    expect(notExaminer.json().errors.examiner_id).toBeDefined();
    expect(await detail(id)).toMatchObject({ reports: [{ draft: true }, { draft: false }], examinations: [] });
    const events = await ctx.services.db.kysely
      .selectFrom('events')
      .select(['type', 'body'])
      .where('type', '=', 'training.report')
      .execute();
    expect(events.map((e) => JSON.parse(e.body).data.report.content)).toEqual(['**Good** session']);
  });

  it('records an examination by an examiner of the area and publishes it', async () => {
    ctx.setNow(NOW + 1000); // the natural key: one training of a user per area and instant
    const made = await create({ user_id: BO, area: 'Denmark', ratings: ['S3'], status: 3 });
    expect(made.json()).toMatchObject({ status: 3 });
    const { id } = made.json();
    const res = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${id}/examinations`,
      token: edit,
      payload: { examination_date: '2026-03-12', position: 'EKCH_APP', examiner_id: EX, result: 'PASSED' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ examiner_id: EX, result: 'PASSED', examination_date: '2026-03-12', position: 'EKCH_APP' });
    // An examination is at a position: a blank one is refused by name, and nothing is recorded.
    for (const position of ['', '   ']) {
      const blank = await ctx.request({
        method: 'POST',
        url: `/api/trainings/${id}/examinations`,
        token: edit,
        payload: { examination_date: '2026-03-12', position, examiner_id: EX, result: 'PASSED' },
      });
      expect(blank.statusCode, blank.body).toBe(422);
      expect(blank.json().errors).toEqual({ position: ['The position field is required.'] });
    }
    expect((await detail(id)).examinations).toHaveLength(1);
    expect(await eventTypes()).toContain('training.examination');
    ctx.setNow(NOW);
  });

  it('refuses a second training of the same user and area at the same instant with 409, not an error', async () => {
    const first = await create({ user_id: EX, area: 'Denmark', ratings: ['C1'] });
    expect(first.statusCode).toBe(201);
    const second = await create({ user_id: EX, area: 'Denmark', ratings: ['C1'] });
    expect(second.statusCode).toBe(409);
    await patch(first.json().id, { status: -2, closed_reason: 'Test' });
  });

  it('completes: facility endorsements issued (an older one of the same name revoked) and activity grace started, in one write', async () => {
    const at = NOW + 2000;
    ctx.setNow(at);
    const { id } = (await create({ user_id: CY, area: 'Denmark', ratings: ['T1 EKCH TWR'], status: 2 })).json();
    const before = (await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${CY}&type=facility`, token: read })).json().data;
    expect(before).toHaveLength(1);
    expect((await patch(id, { status: -1 })).json()).toMatchObject({ status: -1, closed_at: '2026-03-10T12:00:02.000000Z' });
    const after = (await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${CY}&type=facility`, token: read })).json().data;
    expect(after.map((e: { rating: string; revoked: boolean }) => [e.rating, e.revoked])).toEqual([
      ['T1 EKCH TWR', true],
      ['T1 EKCH TWR', false],
    ]);
    const grace = await ctx.services.db.kysely
      .selectFrom('user_area_activity')
      .select(['granted_at', 'active'])
      .where('user_id', '=', CY)
      .executeTakeFirst();
    expect(grace).toEqual({ granted_at: at, active: 1 });
    expect((await detail(id)).timeline.map((e: { action: string }) => e.action)).toContain('endorsement');
    ctx.setNow(NOW);
  });

  it('completes a training for two facilities: both issued, at distinct instants', async () => {
    ctx.setNow(NOW + 3000);
    const { id } = (await create({ user_id: DI, area: 'Denmark', ratings: ['T1 EKCH TWR', 'T1 ESSA TWR'], status: 2 })).json();
    const done = await patch(id, { status: -1 });
    expect(done.statusCode, done.body).toBe(200);
    const held = (await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${DI}&type=facility`, token: read })).json().data;
    expect(held.map((e: { rating: string; revoked: boolean }) => [e.rating, e.revoked]).sort()).toEqual([
      ['T1 EKCH TWR', false],
      ['T1 ESSA TWR', false],
    ]);
    ctx.setNow(NOW);
  });

  it('lists with filters; needs a key to read and an edit key to write', async () => {
    const all = (await ctx.request({ method: 'GET', url: '/api/trainings?area=Denmark&status=0', token: read })).json().data;
    expect(all.map((t: { user_id: number }) => t.user_id)).toEqual([ADA]);
    expect((await ctx.request({ method: 'GET', url: `/api/trainings?user_id=${BO}`, token: read })).json().data).toHaveLength(2);
    expect((await ctx.request({ method: 'GET', url: '/api/trainings' })).statusCode).toBe(401);
    expect((await ctx.request({ method: 'POST', url: '/api/trainings', token: read, payload: {} })).statusCode).toBe(403);
    expect((await ctx.request({ method: 'GET', url: '/api/trainings/999999', token: read })).statusCode).toBe(404);
  });

  it('accepts a form body as well as JSON', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'user_id=1000005&area=Sweden&ratings=C1&english_only=on&type=Familiarisation',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ user_id: EX, type: 'Familiarisation', ratings: ['C1'], english_only: true });
  });
});

describe('a training for a facility in the users API', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        areas: ['Sweden'],
        users: [buildUser({ rating: 'S2' }), buildUser({ id: BO, first_name: 'Bo', rating: 'S2' })],
        positions: [buildPosition('ESSA_TWR', { rating: 'S3', required_facility: 'MAE ESSA APP' })],
        // Imported with the division, as a Control Center move brings it.
        trainings: [buildTraining({ user_id: BO, area: 'Sweden', ratings: ['S3', 'MAE ESSA APP'] })],
      }),
    );
  });
  afterAll(() => ctx.close());

  it('lists every rating name of the training, facility names included, whether created in Sector or imported', async () => {
    const edit = await ctx.key('edit');
    const created = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      payload: { user_id: ADA, area: 'Sweden', ratings: ['MAE ESSA APP', 'S3'] },
    });
    expect(created.statusCode).toBe(201);
    const res = await ctx.request({ method: 'GET', url: '/api/users?include[]=allUsers&include[]=training', token: await ctx.key('read') });
    const ratingsOf = (cid: number) =>
      res
        .json()
        .find((u: { id: number }) => u.id === cid)
        .training.map((t: { ratings: string[] }) => t.ratings);
    expect(ratingsOf(ADA)).toEqual([['S3', 'MAE ESSA APP']]);
    expect(ratingsOf(BO)).toEqual([['S3', 'MAE ESSA APP']]);
  });
});
