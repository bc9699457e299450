// The CPT upload to the division's hub (contract §22) through the API against the hub's stand-in:
// multipart with the examination's first non-hidden file, once per examination of a training for
// S2 or above — when graded with a file, or when its first file comes after the grading — and never
// again for a correction; refused locally when its file is gone before it is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileForm, PDF, PNG } from '../../support/attachments.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { startHubStandIn, type HubStandIn, hubEnv } from '../../support/division-hub-stand-in.js';
import { BO, buildDivision, buildEndorsement, buildPosition, buildUser } from '../../support/factories.js';

const CY = 1000003;
const DAN = 1000004;
const EX = 1000005;
const EVA = 1000006;
const T0 = Date.parse('2026-06-01T12:00:00Z');

describe("the CPT upload to the division's hub", () => {
  let ctx: TestContext;
  let hub: HubStandIn;
  let key: string;

  const drain = async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 100; i++) if (!(await ctx.services.divisionApi!.run({ now: () => T0, signal }))) return;
  };
  const training = async (user_id: number, rating: string) => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: key,
      payload: { user_id, area: 'Denmark', ratings: [rating] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const examination = async (t: number, position: string, result?: string) => {
    const payload = { examination_date: '2026-05-30', position, examiner_id: EX, ...(result ? { result } : {}) };
    const res = await ctx.request({ method: 'POST', url: `/api/trainings/${t}/examinations`, token: key, payload });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const grade = async (t: number, x: number, result: string) => {
    const res = await ctx.request({ method: 'PATCH', url: `/api/trainings/${t}/examinations/${x}`, token: key, payload: { result } });
    expect(res.statusCode, res.body).toBe(200);
  };
  const attach = async (t: number, x: number, name: string, bytes: Buffer, hidden = false) => {
    const form = fileForm(name, bytes, { hidden: String(hidden) });
    const res = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${t}/examinations/${x}/attachments`,
      token: key,
      headers: { 'content-type': form.contentType },
      payload: form.body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const requestsAbout = async (x: number) =>
    ctx.services.db.kysely.selectFrom('division_requests').select(['state', 'member_cid']).where('about', '=', `cpt:${x}`).execute();

  beforeAll(async () => {
    hub = await startHubStandIn();
    ctx = await createTestContext({
      now: T0,
      env: { ...hubEnv(hub), DIVISION_API_TIMEOUT_MS: '500' },
    });
    await ctx.load(
      buildDivision({
        users: [
          buildUser(),
          buildUser({ id: BO, first_name: 'Bo', rating: 'S2' }),
          buildUser({ id: CY, first_name: 'Cy', rating: 'OBS' }),
          buildUser({ id: DAN, first_name: 'Dan', rating: 'S1' }),
          buildUser({ id: EX, first_name: 'Ex', rating: 'C3' }),
          buildUser({ id: EVA, first_name: 'Eva', rating: 'S1' }),
        ],
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP')],
        endorsements: [buildEndorsement({ user_id: EX, type: 'examiner', rating: 'C1', areas: ['Denmark'] })],
      }),
    );
    key = await ctx.key('edit');
    await drain(); // the hub starts from here
  });
  afterAll(async () => {
    await ctx.close();
    await hub.close();
  });

  it('uploads a graded examination of an S3 training as multipart with its first non-hidden file, once', async () => {
    const t = await training(BO, 'S3');
    const x = await examination(t, 'EKCH_APP');
    await attach(t, x, 'notes.png', PNG, true);
    await attach(t, x, 'exam form.pdf', PDF);
    await drain();
    expect(hub.cpts).toEqual([]); // planned: nothing to send yet

    await grade(t, x, 'PASSED');
    await drain();
    expect(hub.cpts).toHaveLength(1);
    const [cpt] = hub.cpts;
    expect(cpt).toMatchObject({ cid: BO, examiner_cid: String(EX), position: 'EKCH_APP', cpt_pass: '1' });
    expect(cpt!.file.name).toBe('exam form.pdf');
    expect(cpt!.file.type).toBe('application/pdf');
    expect(cpt!.file.bytes.equals(PDF)).toBe(true);
    const sent = hub.requests.filter((r) => r.path === `/facility/user/${BO}/notes/cpt`);
    expect(sent.map((r) => r.method)).toEqual(['POST']);

    // A correction, and another file: nothing more.
    await grade(t, x, 'FAILED');
    await attach(t, x, 'more.pdf', PDF);
    await drain();
    expect(hub.cpts).toHaveLength(1);
    expect(await requestsAbout(x)).toEqual([{ state: 'sent', member_cid: BO }]);
    // The database keeps a second upload of one examination out, whoever would queue it.
    await expect(
      ctx.services.db.kysely
        .insertInto('division_requests')
        .values({ member_cid: BO, about: `cpt:${x}`, operation: '{}', state: 'pending', next_at: T0, created_at: T0 })
        .execute(),
    ).rejects.toThrow();
  });

  it('sends nothing for an examination of an S1 training', async () => {
    const t = await training(CY, 'S1');
    const x = await examination(t, 'EKCH_TWR', 'PASSED');
    await attach(t, x, 'form.pdf', PDF);
    const before = hub.requests.length;
    await drain();
    expect(hub.requests.length).toBe(before);
    expect(await requestsAbout(x)).toEqual([]);
  });

  it('sends once when the first non-hidden file comes after the grading, and not for a correction', async () => {
    const t = await training(DAN, 'S2');
    const x = await examination(t, 'EKCH_TWR', 'FAILED');
    await drain();
    await attach(t, x, 'private.png', PNG, true);
    await drain();
    expect(hub.cpts).toHaveLength(1); // the first test's only
    await attach(t, x, 'result.png', PNG);
    await drain();
    expect(hub.cpts).toHaveLength(2);
    expect(hub.cpts[1]).toMatchObject({
      cid: DAN,
      examiner_cid: String(EX),
      position: 'EKCH_TWR',
      cpt_pass: '0',
      file: { name: 'result.png', type: 'image/png' },
    });
    expect(hub.cpts[1]!.file.bytes.equals(PNG)).toBe(true);
    await grade(t, x, 'PASSED');
    await attach(t, x, 'second.pdf', PDF);
    await drain();
    expect(hub.cpts).toHaveLength(2);
    expect(await requestsAbout(x)).toEqual([{ state: 'sent', member_cid: DAN }]);
  });

  it("is refused locally, with the reason, when the examination's file is removed before it is sent", async () => {
    const t = await training(EVA, 'S2');
    const x = await examination(t, 'EKCH_TWR', 'PASSED');
    const file = await attach(t, x, 'form.pdf', PDF);
    await ctx.services.divisionApi!.queue(T0); // queued, not sent yet
    const removed = await ctx.request({ method: 'DELETE', url: `/api/attachments/${file}`, token: key });
    expect(removed.statusCode, removed.body).toBe(204);
    const before = hub.requests.length;
    await drain();
    expect(hub.requests.length).toBe(before);
    const { refused } = await ctx.services.divisionApi!.status();
    expect(refused).toMatchObject([
      {
        method: 'POST',
        path: `/facility/user/${EVA}/notes/cpt`,
        about: `cpt:${x}`,
        error: 'The examination carries no file to send any more.',
      },
    ]);
  });
});
