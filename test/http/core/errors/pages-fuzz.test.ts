// The pages' share of "no 5xx from any input": every page route the app registers (read from the
// app itself, so a new page is fuzzed without being listed) gets random and hostile paths, queries
// and form fields, from a signed-out visitor and from members of every kind, with and without the
// session's CSRF token, against a realistic division. The API has its own fuzz (openapi/fuzz.test.ts).
//
// FUZZ_RUNS (default 100 per route) and FUZZ_SEED reproduce or deepen a run.
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoDivision } from '../../../../src/features/demo/division.js';
import * as bookingPageSchemas from '../../../../src/features/bookings/member-pages.schema.js';
import * as positionPageSchemas from '../../../../src/features/positions/staff-pages.schema.js';
import * as signInSchemas from '../../../../src/features/sign-in/sign-in.schema.js';
import * as staffSchemas from '../../../../src/features/staff/staff-pages.schema.js';
import * as trainingPageSchemas from '../../../../src/features/trainings/member-pages.schema.js';
import { createTestContext } from '../../../support/context.js';
import { csrfOf, SIGN_IN_ENV, signIn } from '../../../support/members.js';

const NOW = Date.UTC(2026, 2, 10, 14, 7, 33);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** Routes that are not pages: the API (fuzzed from its OpenAPI document), documents, assets, probes. */
const NOT_PAGES = /^\/(api\/|docs|openapi\.json|assets\/|metrics|health|calendar\/bookings\.ics|\*)/;
/** Signing out ends the persona's session, which every later request needs (covered by the sign-in tests). */
const LEFT_OUT = new Set(['POST /auth/logout']);
// Pages the fuzz must reach (it picks up any new one beside them).
const EXPECTED = [
  'GET /',
  'GET /auth/login',
  'GET /auth/callback',
  'GET /bookings/new',
  'POST /bookings',
  'POST /bookings/:id',
  'GET /bookings/:id/edit',
  'POST /bookings/:id/cancel',
  'GET /my',
  'GET /my/bookings',
  'POST /my/calendar',
  'GET /calendar/member/:file',
  'GET /training/apply',
  'POST /training/apply',
  'GET /my/training',
  'POST /my/training/interest',
  'POST /my/training/close',
  'GET /staff',
  'GET /staff/students',
  'GET /staff/users',
  'GET /staff/users/:cid',
  'POST /staff/users/:cid/endorsements',
  'POST /staff/users/:cid/roles',
  'POST /staff/users/:cid/roles/revoke',
  'GET /staff/endorsements',
  'POST /staff/endorsements/:id/end',
  'POST /staff/endorsements/:id/revoke',
  'GET /staff/positions',
  'POST /staff/positions',
  'POST /staff/positions/:callsign',
  'POST /staff/positions/:callsign/remove',
  'GET /staff/trainings',
  'POST /staff/trainings',
  'GET /staff/trainings/:id',
  'POST /staff/trainings/:id',
  'POST /staff/trainings/:id/status',
  'POST /staff/trainings/:id/reports',
  'POST /staff/trainings/:id/examinations',
];

/** "METHOD /path" of every route, read from Fastify's route tree (its only listing of routes). */
function routesOf(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)$/.exec(line.replace(/\u00a0/g, ' '));
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join('').replace(/\(\^[^)]*\)/g, '');
    for (const method of m[3]!.split(', ')) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push(`${method} ${path}`);
  }
  return [...new Set(routes)];
}

/** Every field name a page declares (its body and query schemas), and a few it does not. */
function fieldNames(): string[] {
  const names = new Set(['q', 'next', 'notes', 'cid', 'x']);
  const schemas: unknown[] = [bookingPageSchemas, positionPageSchemas, signInSchemas, staffSchemas, trainingPageSchemas].flatMap((m) =>
    Object.values(m),
  );
  for (const schema of schemas) {
    if (typeof schema !== 'object' || schema === null) continue;
    for (const part of ['body', 'querystring'] as const) {
      const props = (schema as Partial<Record<typeof part, { properties?: object }>>)[part]?.properties;
      for (const name of Object.keys(props ?? {})) if (name !== '_csrf') names.add(name);
    }
  }
  return [...names];
}

const ctx = await createTestContext({ now: NOW, env: { ...SIGN_IN_ENV, DIVISION: 'EUD' } });
const demo = buildDemoDivision({ now: NOW, seed: 11, scale: { users: 60, endorsementsPerUser: 1.5, openTrainings: 10, bookings: 60 } });
await ctx.load(demo);
const kysely = ctx.services.db.kysely;

// A member of each kind: staff division-wide and of one area, a mentor, a trainee, a plain member.
const roles = await kysely.selectFrom('roles').select(['user_id', 'role', 'area_id']).execute();
const trainees = await kysely.selectFrom('trainings').select('user_id').where('status', '>=', 0).execute();
const staff = new Set(roles.map((r) => r.user_id));
const pick = (ids: number[]) => ids[0];
const personas = {
  administrator: pick(roles.filter((r) => r.role === 'Administrator').map((r) => r.user_id)),
  moderator: pick(roles.filter((r) => r.role === 'Moderator').map((r) => r.user_id)),
  mentor: pick(roles.filter((r) => r.role === 'Mentor').map((r) => r.user_id)),
  trainee: pick(trainees.map((t) => t.user_id).filter((id) => !staff.has(id))),
  member: pick(demo.users.map((u) => u.id).filter((id) => !staff.has(id) && !trainees.some((t) => t.user_id === id))),
};
const sessions = new Map<string, { cookie: string; csrf: string }>();
for (const [who, cid] of Object.entries(personas)) {
  if (cid === undefined) throw new Error(`the demo division has no ${who}`);
  const { cookie } = await signIn(
    ctx.app,
    ctx.services,
    demo.users.find((u) => u.id === cid)!,
  );
  const page = await ctx.app.inject({ method: 'GET', url: '/my/bookings', headers: { cookie } });
  sessions.set(who, { cookie, csrf: csrfOf(page.body) });
}

const ids = async (table: 'bookings' | 'trainings' | 'endorsements') =>
  (await kysely.selectFrom(table).select('id').orderBy('id').execute()).map((r) => String(r.id));
const HOSTILE = ['0', '-1', '1.5', 'abc', '99999999999', '99999999999999999999', '%00', '%E2%82%AC', 'x'.repeat(61), '..%2F..'];
const params: Record<string, string[]> = {
  id: [...(await ids('bookings')).slice(0, 5), ...(await ids('trainings')).slice(0, 5), ...(await ids('endorsements')).slice(0, 5)],
  cid: demo.users.slice(0, 8).map((u) => String(u.id)),
  callsign: demo.positions.slice(0, 5).map((p) => encodeURIComponent(p.callsign)),
  file: ['x.ics', 'abc'],
};
const values = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'on',
    '0',
    '1',
    '3',
    '-2',
    'S2',
    'C1',
    'solo',
    'examiner',
    'Standard',
    'PASSED',
    'Mentor',
    'Administrator',
    '2026-03-11',
    '11/03/2026',
    '12:00',
    '25:99',
    '2026-02-30',
    '118.100',
    '\u0000',
    '<script>',
    '💥',
    '__proto__',
    '1e308',
    'NaN',
    'x'.repeat(1999),
    'x'.repeat(2001),
  ),
  fc.constantFrom(...demo.areas, ...demo.positions.slice(0, 5).map((p) => p.callsign), ...params.cid!),
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
);
const FIELDS = fieldNames();
const field = fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom('', '', '', '[]', '[0]', '[a][b]'), values);

function requestArbitrary(route: string) {
  const [method, template] = route.split(' ') as [string, string];
  const path = template
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? fc.oneof(fc.constantFrom(...(params[segment.slice(1)] ?? ['1'])), fc.constantFrom(...HOSTILE))
        : fc.constant(segment),
    );
  return fc.record({
    who: fc.constantFrom('signed out', ...Object.keys(personas)),
    token: fc.constantFrom('session', 'session', 'session', 'none', 'forged'),
    path: fc.tuple(...path).map((parts) => parts.join('/') || '/'),
    fields: fc.array(field, { maxLength: 7 }),
    method: fc.constant(method),
  });
}

const encode = (fields: ReadonlyArray<readonly [string, string, string]>) =>
  fields.map(([name, shape, value]) => `${encodeURIComponent(name + shape)}=${encodeURIComponent(value)}`);

describe('the pages under random and hostile input', () => {
  afterAll(() => ctx.close());
  const routes = routesOf(ctx.app).filter((r) => !NOT_PAGES.test(r.split(' ')[1]!) && !LEFT_OUT.has(r));

  it('reaches every page the contract defines (and any new one)', () => {
    expect(routes).toEqual(expect.arrayContaining(EXPECTED));
  });

  for (const route of routes) {
    it(`${route}: ${RUNS} random requests, never a 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route), async (req) => {
          const session = sessions.get(req.who);
          const form = encode(req.fields);
          if (session && req.token !== 'none') form.unshift(`_csrf=${req.token === 'session' ? session.csrf : 'forged'}`);
          const headers: Record<string, string> = session ? { cookie: session.cookie } : {};
          const res =
            req.method === 'GET'
              ? await ctx.app.inject({ method: 'GET', url: `${req.path}${form.length > 0 ? `?${form.join('&')}` : ''}`, headers })
              : await ctx.app.inject({
                  method: 'POST',
                  url: req.path,
                  headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
                  payload: form.join('&'),
                });
          expect(
            res.statusCode,
            `${req.who} ${req.method} ${req.path} ${form.join('&').slice(0, 300)}: ${res.body.slice(0, 300)}`,
          ).toBeLessThan(500);
        }),
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: true },
      );
    });
  }
});
