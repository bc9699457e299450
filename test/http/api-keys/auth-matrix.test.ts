// The authentication matrix (docs/api.md), for every /api operation the OpenAPI document lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildBooking, buildDivision, buildEndorsement, buildRole, buildTraining } from '../../support/factories.js';
import { fileForm } from '../../support/attachments.js';

type Caller = 'none' | 'read' | 'edit' | 'bad';
type Expect = number | 'allowed';

const PUBLIC = { none: 200, read: 200, edit: 200, bad: 401 } as const;
const KEYED = { none: 401, read: 200, edit: 200, bad: 401 } as const;
const WRITE = { none: 401, read: 403, edit: 'allowed', bad: 401 } as const;

const MATRIX: Record<
  string,
  { url: string; payload?: object; form?: { body: Buffer; contentType: string }; expect: Record<Caller, Expect> }
> = {
  'GET /api/positions': { url: '/api/positions', expect: PUBLIC },
  'GET /api/online': { url: '/api/online', expect: PUBLIC },
  'GET /api/bookings': { url: '/api/bookings', expect: PUBLIC },
  'GET /api/bookings/{id}': { url: '/api/bookings/1', expect: PUBLIC },
  'GET /api/users': { url: '/api/users?include[]=allUsers', expect: KEYED },
  'GET /api/roles': { url: '/api/roles', expect: KEYED },
  'GET /api/endorsements/masc': { url: '/api/endorsements/masc', expect: KEYED },
  'GET /api/endorsements/training/solo': { url: '/api/endorsements/training/solo', expect: KEYED },
  'GET /api/endorsements/training/s1': { url: '/api/endorsements/training/s1', expect: KEYED },
  'GET /api/endorsements/examiner': { url: '/api/endorsements/examiner', expect: KEYED },
  'GET /api/endorsements/visiting': { url: '/api/endorsements/visiting', expect: KEYED },
  'POST /api/bookings/create': {
    url: '/api/bookings/create',
    payload: { cid: 1000001, date: '01/06/2099', start_at: '10:00', end_at: '11:00', position: 'EKCH_TWR' },
    expect: WRITE,
  },
  'POST /api/bookings/batch': {
    url: '/api/bookings/batch',
    payload: { bookings: [{ cid: 1000001, date: '02/06/2099', start_at: '10:00', end_at: '11:00', position: 'EKCH_TWR' }] },
    expect: WRITE,
  },
  'PATCH /api/bookings/{id}': { url: '/api/bookings/1', payload: { end_at: '12:30' }, expect: WRITE },
  'DELETE /api/bookings/{id}': { url: '/api/bookings/2', expect: WRITE },
  'GET /api/events': { url: '/api/events', expect: KEYED },
  'GET /api/endorsements': { url: '/api/endorsements', expect: KEYED },
  'GET /api/endorsements/{id}': { url: '/api/endorsements/1', expect: KEYED },
  'POST /api/endorsements': {
    url: '/api/endorsements',
    payload: { user_id: 1000001, type: 'visiting', rating: 'S3', areas: ['Denmark'] },
    expect: WRITE,
  },
  'PATCH /api/endorsements/{id}': { url: '/api/endorsements/1', payload: { valid_to: '2099-01-01T00:00:00Z' }, expect: WRITE },
  'DELETE /api/endorsements/{id}': { url: '/api/endorsements/1', expect: WRITE },
  'POST /api/positions': {
    url: '/api/positions',
    payload: { callsign: 'EKCH_X_TWR', name: 'Kastrup Tower West', frequency: '118.700', area: 'Denmark', rating: 'S2' },
    expect: WRITE,
  },
  'PATCH /api/positions/{callsign}': { url: '/api/positions/EKCH_TWR', payload: { name: 'Kastrup Tower' }, expect: WRITE },
  'DELETE /api/positions/{callsign}': { url: '/api/positions/EKCH_X_TWR', expect: WRITE },
  'GET /api/trainings': { url: '/api/trainings', expect: KEYED },
  'GET /api/trainings/{id}': { url: '/api/trainings/1', expect: KEYED },
  'POST /api/trainings': { url: '/api/trainings', payload: { user_id: 1000001, area: 'Denmark', ratings: ['C3'] }, expect: WRITE },
  'PATCH /api/trainings/{id}': { url: '/api/trainings/1', payload: { paused: true }, expect: WRITE },
  'POST /api/trainings/{id}/reports': {
    url: '/api/trainings/1/reports',
    payload: { report_date: '2026-03-01', content: 'A good session' },
    expect: WRITE,
  },
  'POST /api/trainings/{id}/examinations': {
    url: '/api/trainings/1/examinations',
    payload: { examination_date: '2026-03-01', position: 'EKCH_TWR', examiner_id: 1000001, result: 'PASSED' },
    expect: WRITE,
  },
  // Files (contract §20), multipart: on report 1 and examination 2 written above; file 1 is removed, file 2 read.
  'POST /api/trainings/{id}/reports/{rid}/attachments': {
    url: '/api/trainings/1/reports/1/attachments',
    form: fileForm('notes.txt', Buffer.from('Notes')),
    expect: WRITE,
  },
  'POST /api/trainings/{id}/examinations/{xid}/attachments': {
    url: '/api/trainings/1/examinations/2/attachments',
    form: fileForm('form.txt', Buffer.from('Form')),
    expect: WRITE,
  },
  'GET /api/attachments/{id}': { url: '/api/attachments/2', expect: KEYED },
  'DELETE /api/attachments/{id}': { url: '/api/attachments/1', expect: WRITE },
  // Report 1 is the one written above.
  'PATCH /api/trainings/{id}/reports/{rid}': { url: '/api/trainings/1/reports/1', payload: { content: 'Edited' }, expect: WRITE },
  'DELETE /api/trainings/{id}/reports/{rid}': { url: '/api/trainings/1/reports/1', expect: WRITE },
  // Examination 2 is the one recorded above; 1, planned, is loaded with the division.
  'PATCH /api/trainings/{id}/examinations/{xid}': { url: '/api/trainings/1/examinations/2', payload: { start: '18:00' }, expect: WRITE },
  'DELETE /api/trainings/{id}/examinations/{xid}': { url: '/api/trainings/1/examinations/1', expect: WRITE },
  // Tasks (§21): task 1 is made by the POST below, after its GET (404 once the key passes).
  'GET /api/tasks': { url: '/api/tasks', expect: KEYED },
  'GET /api/tasks/{id}': { url: '/api/tasks/1', expect: { none: 401, read: 404, edit: 404, bad: 401 } },
  'POST /api/tasks': {
    url: '/api/tasks',
    payload: { type: 'custom', subject_user_id: 1000001, message: 'x', assignee_id: 1000001, creator_id: 1000001 },
    expect: WRITE,
  },
  'PATCH /api/tasks/{id}': { url: '/api/tasks/1', payload: { status: 'withdrawn', actor_id: 1000001 }, expect: WRITE },
  // Facilities with tiers (§22).
  'GET /api/facilities': { url: '/api/facilities', expect: KEYED },
  'PUT /api/facilities/{name}': { url: '/api/facilities/T1%20EKCH%20TWR', payload: { tier: 'T1' }, expect: WRITE },
  // The sweatbox and feedback (§23): read keys read.
  'GET /api/sweatbox': { url: '/api/sweatbox', expect: KEYED },
  'GET /api/feedback': { url: '/api/feedback', expect: KEYED },
};

/** The event stream never ends: asked over a real socket, its status read, then the connection closed. */
const STREAMS = new Set(['GET /api/events']);

describe('authentication matrix (docs/api.md)', () => {
  let ctx: TestContext;
  const tokens: Partial<Record<Caller, string>> = {};
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.load(
      buildDivision({
        // A division-wide Administrator, who may send and be sent a task (§21).
        roles: [buildRole({ user_id: 1000001, area: null, role: 'Administrator' })],
        endorsements: [buildEndorsement(), buildEndorsement({ type: 'examiner', rating: 'S3', areas: ['Denmark'] })],
        trainings: [
          {
            ...buildTraining(),
            examinations: [
              { examination_date: '2026-03-02', position: 'EKCH_TWR', examiners: [1000001], created_at: '2026-03-01T00:00:00Z' },
            ],
          },
        ],
        bookings: [
          buildBooking({ id: 1, time_start: '2099-01-01 10:00:00', time_end: '2099-01-01 12:00:00' }),
          buildBooking({ id: 2, time_start: '2099-01-02 10:00:00', time_end: '2099-01-02 12:00:00' }),
        ],
      }),
    );
    tokens.read = await ctx.key('read');
    tokens.edit = await ctx.key('edit');
    tokens.bad = `sector_${'0'.repeat(16)}_${'x'.repeat(43)}`;
  });
  afterAll(async () => {
    // The stream requests went over real sockets (STREAMS below): close them before the app.
    ctx.app.server.closeAllConnections();
    await ctx.close();
  });

  it('covers every /api operation of the OpenAPI document', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) =>
        Object.keys(methods)
          .filter((m) => m !== 'head')
          .map((m) => `${m.toUpperCase()} ${path}`),
      );
    expect(operations.sort()).toEqual(Object.keys(MATRIX).sort());
  });

  // Writes last within each operation (none, read, bad first), so the edit call finds the booking.
  for (const [operation, { url, payload, form, expect: expected }] of Object.entries(MATRIX)) {
    for (const caller of ['none', 'bad', 'read', 'edit'] as const) {
      it(`${operation} as ${caller}: ${expected[caller]}`, async () => {
        const method = operation.split(' ')[0] as 'GET' | 'POST' | 'PATCH' | 'DELETE';
        const token = caller === 'none' ? undefined : tokens[caller];
        if (STREAMS.has(operation)) {
          const base = await ctx.app
            .listen({ host: '127.0.0.1', port: 0 })
            .catch(() => `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`);
          const aborter = new AbortController();
          const res = await fetch(`${base}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: aborter.signal });
          expect(res.status).toBe(expected[caller]);
          if (res.status === 200) expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
          else expect(await res.json()).toEqual(expect.objectContaining({ message: expect.any(String) }));
          aborter.abort();
          return;
        }
        const body = form ? { headers: { 'content-type': form.contentType }, payload: form.body } : payload ? { payload } : {};
        const res = await ctx.request({ method, url, token, ...body });
        if (expected[caller] === 'allowed') {
          expect(res.statusCode).toBeGreaterThanOrEqual(200);
          expect(res.statusCode).toBeLessThan(300);
        } else {
          expect(res.statusCode).toBe(expected[caller]);
        }
        if (method === 'GET' && url.startsWith('/api/bookings') && res.statusCode === 200) {
          // Full form with a key, reduced form without.
          const booking = [res.json()].flat()[0] as Record<string, unknown>;
          expect('user_id' in booking).toBe(caller === 'read' || caller === 'edit');
        }
        if (res.statusCode === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        if (res.statusCode >= 400) expect(res.json()).toEqual(expect.objectContaining({ message: expect.any(String) }));
      });
    }
  }
});
