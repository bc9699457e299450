// Schema-driven fuzzing: every operation in the app's own /openapi.json gets hundreds of valid,
// near-valid and hostile requests against a realistic database. Whatever arrives, the service
// responds without a 5xx, explains every 4xx in JSON, keeps every 2xx to the documented schema,
// changes nothing on a refusal, and never lets two live bookings of one position overlap.
//
// FUZZ_RUNS (default 500 per operation) and FUZZ_SEED reproduce or deepen a run.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoDivision } from '../../../../src/features/demo/division.js';
import { createTestContext } from '../../../support/context.js';
import { type FuzzRequest, type FuzzWorld, type OpenApiOperation, operationsOf, requestArbitrary } from '../../../support/openapi-fuzz.js';

const NOW = Date.UTC(2026, 2, 10, 14, 7, 33);
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

// The operations the contract defines: the fuzz must cover each (and picks up any new one).
const EXPECTED = [
  'GET /api/positions',
  'GET /api/online',
  'GET /api/bookings',
  'GET /api/bookings/{id}',
  'POST /api/bookings/create',
  'POST /api/bookings/batch',
  'PATCH /api/bookings/{id}',
  'DELETE /api/bookings/{id}',
  'GET /api/users',
  'GET /api/roles',
  'GET /api/endorsements/masc',
  'GET /api/endorsements/training/solo',
  'GET /api/endorsements/training/s1',
  'GET /api/endorsements/examiner',
  'GET /api/endorsements/visiting',
];

const ctx = await createTestContext({ now: NOW });
const demo = buildDemoDivision({ now: NOW, seed: 7, scale: { users: 80, endorsementsPerUser: 1.5, openTrainings: 12, bookings: 80 } });
await ctx.load(demo);
const kysely = ctx.services.db.kysely;

const revoked = await ctx.services.keys.create({ name: 'fuzz-revoked', scope: 'edit' });
await ctx.services.keys.revoke(revoked.key.id, NOW - 60_000);
const expired = await ctx.services.keys.create({ name: 'fuzz-expired', scope: 'edit', expiresAt: NOW - 1 });

// An examiner of every area, so that an examination of any training can name a valid examiner.
const examiner = demo.users[0]!.id;
const issued = await ctx.request({
  method: 'POST',
  url: '/api/endorsements',
  token: await ctx.key('edit'),
  payload: { user_id: examiner, type: 'examiner', rating: 'C1', areas: demo.areas },
});
if (issued.statusCode !== 201) throw new Error(`the fuzz's examiner was not issued: ${issued.body}`);

// Reports to edit and delete (contract §20), some drafts: enough that deletions leave some to edit.
const editKey = await ctx.key('edit');
const trainingIds = (await kysely.selectFrom('trainings').select('id').orderBy('id').execute()).map((r) => r.id);
for (const [i, training] of trainingIds.slice(0, 8).entries()) {
  for (const draft of [true, false, i % 2 === 0]) {
    const made = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${training}/reports`,
      token: editKey,
      payload: { report_date: '2026-03-01', content: 'Fuzz report', draft },
    });
    if (made.statusCode !== 201) throw new Error(`the fuzz's report was not written: ${made.body}`);
  }
}
const reports = (await kysely.selectFrom('training_reports').select(['id', 'training_id']).execute()).map((r) => ({
  training: r.training_id,
  id: r.id,
}));

const bookingIds = (await kysely.selectFrom('bookings').select('id').orderBy('id').execute()).map((r) => r.id);
// Planned examinations (§20) for the examination's PATCH and DELETE to find: several per training.
const examCallsign = demo.positions.find((p) => ['S1', 'S2', 'S3'].includes(p.rating))!.callsign;
const examinations: FuzzWorld['examinations'] = [];
const openTrainings = (await kysely.selectFrom('trainings').select('id').where('status', '>=', 0).orderBy('id').execute()).map((r) => r.id);
for (const id of openTrainings.slice(0, 20))
  for (let i = 0; i < 3; i++) {
    const res = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${id}/examinations`,
      token: await ctx.key('edit'),
      payload: { examination_date: '2026-07-01', position: examCallsign, examiners: [examiner] },
    });
    if (res.statusCode !== 201) throw new Error(`the fuzz's examination was not planned: ${res.body}`);
    examinations.push({ id, xid: (res.json() as { id: number }).id });
  }
// Reports and an examination to attach files to, and files to download and remove (contract §20).
const attachments: FuzzWorld['attachments'] = { records: [], ids: [] };
{
  const edit = await ctx.key('edit');
  for (const training of trainingIds.slice(0, 6)) {
    for (let i = 0; i < 3; i++) {
      const report = await ctx.request({
        method: 'POST',
        url: `/api/trainings/${training}/reports`,
        token: edit,
        payload: { report_date: '2026-01-02', content: 'Fuzz' },
      });
      attachments.records.push({ training, kind: 'reports', id: (report.json() as { id: number }).id });
    }
    const exam = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${training}/examinations`,
      token: edit,
      payload: { examination_date: '2026-01-02', position: examCallsign, examiners: [examiner], result: 'PASSED' },
    });
    if (exam.statusCode === 201) attachments.records.push({ training, kind: 'examinations', id: (exam.json() as { id: number }).id });
  }
  for (const r of attachments.records.filter((x) => x.kind === 'reports').slice(0, 12)) {
    const body = `--b\r\nContent-Disposition: form-data; name="file"; filename="seed.txt"\r\n\r\nSeed\r\n--b--\r\n`;
    const made = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${r.training}/reports/${r.id}/attachments`,
      token: edit,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      payload: body,
    });
    if (made.statusCode !== 201) throw new Error(`the fuzz's attachment was not made: ${made.body}`);
    attachments.ids.push((made.json() as { id: number }).id);
  }
}
// Custom tasks (§21) between two Moderators or Administrators, for the task's GET and PATCH to find.
const taskStaff = [
  ...new Set(
    (
      await kysely.selectFrom('roles').select('user_id').where('role', 'in', ['Administrator', 'Moderator']).orderBy('user_id').execute()
    ).map((r) => r.user_id),
  ),
].slice(0, 2);
if (taskStaff.length < 2) throw new Error('the fuzz needs two Moderators or Administrators');
const taskIds: number[] = [];
for (let i = 0; i < 30; i++) {
  const [creator, assignee] = i % 2 === 0 ? taskStaff : [...taskStaff].reverse();
  const made = await ctx.request({
    method: 'POST',
    url: '/api/tasks',
    token: editKey,
    payload: { type: 'custom', subject_user_id: demo.users[5]!.id, message: 'Fuzz task', assignee_id: assignee, creator_id: creator },
  });
  if (made.statusCode !== 201) throw new Error(`the fuzz's task was not made: ${made.body}`);
  taskIds.push((made.json() as { id: number }).id);
}
const world: FuzzWorld = {
  now: NOW,
  userIds: demo.users.map((u) => u.id),
  callsigns: demo.positions.map((p) => p.callsign),
  bookingIds,
  trainingIds,
  attachments,
  areas: demo.areas,
  examinerIds: [examiner],
  examinations,
  maxBookingId: bookingIds.at(-1)! + RUNS * 2,
  reservedIds: [(issued.json() as { id: number }).id],
  reports,
  tasks: { ids: taskIds, staff: taskStaff },
  relations: ['allUsers', 'endorsements', 'roles', 'training', 'name', 'email', 'divisions', 'activeAreas'],
  tokens: {
    read: await ctx.key('read'),
    edit: await ctx.key('edit'),
    editOlder: await ctx.key('edit', { variant: 'older' }),
    readCompat: await ctx.key('read', { compat: 'controlcenter' }),
    revoked: revoked.token,
    expired: expired.token,
  },
};

const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json();
// The event stream never ends, so it cannot be injected; test/http/events covers it over sockets.
const operations = operationsOf(doc).filter((op) => op.path !== '/api/events');

// Response bodies are checked against the document itself, so $refs resolve as a client's would.
const ajv = new Ajv2020({ strict: false, allErrors: true });
// Contract §2: every timestamp is ISO 8601 UTC with exactly six fractional digits.
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
ajv.addSchema(doc, 'openapi.json');
const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
function responseValidator(op: OpenApiOperation, status: string): ValidateFunction | undefined {
  if (op.responses[status] === undefined) return undefined;
  const ref = `openapi.json#/${pointer('paths', op.path, op.method.toLowerCase(), 'responses', status, 'content', 'application/json', 'schema')}`;
  return ajv.getSchema(ref);
}

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Changes whenever any booking changes: a refused write must leave it as it was. */
async function bookingsFingerprint(): Promise<string> {
  const { rows } = await sql<Record<string, unknown>>`
    select count(*) as n, coalesce(max(id), 0) as max_id, coalesce(sum(deleted), 0) as deleted,
           coalesce(sum(time_start % 1000003), 0) as starts, coalesce(sum(time_end % 1000003), 0) as ends,
           coalesce(sum(training + 2 * exam + 4 * event), 0) as flags, coalesce(sum(user_id % 1000003), 0) as users,
           coalesce(sum(position_id), 0) as positions, coalesce(max(updated_at), 0) as updated
    from bookings`.execute(kysely);
  return JSON.stringify(rows[0], (_k, v) => (typeof v === 'bigint' ? String(v) : typeof v === 'number' ? String(v) : v));
}

const describeExchange = (req: FuzzRequest, status: number, body: string) =>
  `${req.method} ${req.url.slice(0, 300)}\n  headers: ${JSON.stringify(req.headers).slice(0, 400)}\n  payload: ${(req.payload ?? '<none>').slice(0, 300)}\n  -> ${status} ${body.slice(0, 600)}`;

const statusCounts = new Map<string, Map<number, number>>();
/** 2xx responses to the operation's own method, per operation. */
const documentedOk = new Map<string, number>();

async function exchange(op: OpenApiOperation, req: FuzzRequest): Promise<void> {
  const write = WRITES.has(req.method);
  const before = write ? await bookingsFingerprint() : null;
  const res = await ctx.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: req.headers,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
  const key = `${op.method} ${op.path}`;
  const counts = statusCounts.get(key) ?? new Map<number, number>();
  counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
  statusCounts.set(key, counts);
  // A 2xx to a swapped method (HEAD for GET, say) is not the operation's success path.
  if (req.documented && res.statusCode >= 200 && res.statusCode < 300) documentedOk.set(key, (documentedOk.get(key) ?? 0) + 1);
  const what = describeExchange(req, res.statusCode, res.body);

  expect(res.statusCode, what).toBeLessThan(500);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  if (req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) return;

  if (res.statusCode >= 400) {
    // A refusal documented as a page (the schedule page's filter): that page, and nothing changed.
    const refusalTypes = op.mediaTypes[String(res.statusCode)] ?? [];
    if (refusalTypes.length > 0 && !refusalTypes.includes('application/json')) {
      expect(
        refusalTypes.some((t) => String(res.headers['content-type']).startsWith(t)),
        what,
      ).toBe(true);
      if (before !== null) expect(await bookingsFingerprint(), `a refused request changed bookings\n${what}`).toBe(before);
      return;
    }
    expect(res.headers['content-type'], what).toMatch(/^application\/json/);
    const body = JSON.parse(res.body) as { message?: unknown };
    expect(typeof body.message, what).toBe('string');
    if (before !== null) expect(await bookingsFingerprint(), `a refused request changed bookings\n${what}`).toBe(before);
    return;
  }

  if (res.statusCode >= 200 && res.statusCode < 300 && req.documented) {
    // A body documented in another format than JSON (the calendar feed, the schedule page): of that type.
    const types = op.mediaTypes[String(res.statusCode)] ?? [];
    if (types.length > 0 && !types.includes('application/json')) {
      expect(
        types.some((t) => String(res.headers['content-type']).startsWith(t)),
        `content type ${String(res.headers['content-type'])} is not documented\n${what}`,
      ).toBe(true);
      if (req.auth === 'none') expect(res.body, what).not.toMatch(/@example\.|"(user_id|email)":/);
      return;
    }
    const validate = responseValidator(op, String(res.statusCode));
    expect(validate, `status ${res.statusCode} is not documented\n${what}`).toBeDefined();
    const body: unknown = JSON.parse(res.body);
    const valid = validate!(body);
    expect(valid, `${ajv.errorsText(validate!.errors)}\n${what}`).toBe(true);
    // Personal data is never public: without a key no booker or e-mail leaves the service.
    if (req.auth === 'none') {
      expect(res.body, what).not.toMatch(/"(user_id|email|position_id|source)":/);
      if (op.path.startsWith('/api/bookings')) expect(res.body, what).not.toMatch(/"name":/);
    }
  }
}

afterAll(async () => {
  if (process.env.FUZZ_REPORT)
    for (const [op, counts] of statusCounts)
      console.log(op, JSON.stringify([...counts].sort((a, b) => a[0] - b[0])), `2xx to its own method: ${documentedOk.get(op) ?? 0}`);
  await ctx.close();
});

describe('schema-driven fuzzing over /openapi.json', () => {
  it('documents every operation of the contract', () => {
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(expect.arrayContaining(EXPECTED));
  });

  for (const op of operations) {
    it(`${op.method} ${op.path}: ${RUNS} random requests, no 5xx, 4xx in JSON, 2xx as documented`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op, world), (req) => exchange(op, req)),
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: true },
      );
      const counts = statusCounts.get(`${op.method} ${op.path}`)!;
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThanOrEqual(RUNS);
      // The generator must reach both the success path and the refusals, or it tests too little.
      const ok = [...counts].filter(([s]) => s >= 200 && s < 300).reduce((a, [, n]) => a + n, 0);
      expect(
        documentedOk.get(`${op.method} ${op.path}`) ?? 0,
        `no 2xx to ${op.method} among ${JSON.stringify([...counts])}`,
      ).toBeGreaterThan(0);
      if (op.path !== '/health') expect(total - ok, `no refusals among ${JSON.stringify([...counts])}`).toBeGreaterThan(0);
    });
  }

  it('leaves no two live bookings of one position overlapping, and every booking a real period', async () => {
    const overlaps = await kysely
      .selectFrom('bookings as a')
      .innerJoin('bookings as b', (join) => join.onRef('a.position_id', '=', 'b.position_id').onRef('a.id', '<', 'b.id'))
      .select(['a.id as first', 'b.id as second'])
      .where('a.deleted', '=', 0)
      .where('b.deleted', '=', 0)
      .whereRef('a.time_start', '<', 'b.time_end')
      .whereRef('b.time_start', '<', 'a.time_end')
      .execute();
    expect(overlaps).toEqual([]);
    const empty = await kysely.selectFrom('bookings').select('id').whereRef('time_end', '<=', 'time_start').execute();
    expect(empty).toEqual([]);
    // The fuzz did write: creates, updates and deletes all succeeded at least once.
    const writes = (key: string) => documentedOk.get(key) ?? 0;
    expect(writes('POST /api/bookings/create')).toBeGreaterThan(0);
    expect(writes('PATCH /api/bookings/{id}')).toBeGreaterThan(0);
    expect(writes('DELETE /api/bookings/{id}')).toBeGreaterThan(0);
  });
});
