// Writes that check a state before changing it, sent at once to two server processes on one database
// (contract §17, §18): each takes its lock first and reads the state under it, so of concurrent
// conflicting changes exactly one succeeds and the others see it (409), whatever the order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { buildDivision, buildEndorsement, buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { csrfOf, SIGN_IN_ENV, signInOnDatabase } from '../../support/members.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { createKey, importData } from '../../support/seed.js';

const DAY = 86_400_000;
/** Students, each with their own endorsements, so the tests do not share rows. */
const CID = 1_000_300;
const students = Array.from({ length: 40 }, (_, i) => buildUser({ id: CID + i, first_name: 'Student', last_name: `No${i}` }));
/** Students CID + 20 … CID + 24 train for Kastrup Tower's facility endorsement. */
const TRAINEE = CID + 20;
const FACILITY = 'T1 EKCH TWR';
/** The division's Administrator, who manages positions on the staff pages. */
const ADMIN = buildUser({ id: 1_000_500, first_name: 'Admin', last_name: 'Istrator' });
/** A member who may apply for S2 training in Denmark. */
const APPLICANT = buildUser({ id: 1_000_501, first_name: 'Appli', last_name: 'Cant', rating: 'S1' });
/** Positions without bookings, one removed per round. */
const SPARE = Array.from({ length: 8 }, (_, i) => ({
  callsign: `EKRC${i}_TWR`,
  name: `Spare ${i}`,
  frequency: '118.000',
  area: 'Denmark',
  rating: 'S1',
}));

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe('conflicting writes at once over two instances', () => {
  const env = { DATABASE_URL: freshDatabaseUrl(), ...SIGN_IN_ENV };
  let servers: ServerProcess[] = [];
  let token: string;

  beforeAll(async () => {
    const far = new Date(Date.now() + 365 * DAY).toISOString();
    await importData(
      env,
      buildDivision({
        users: [...students, ADMIN, APPLICANT],
        positions: [buildPosition('EKCH_TWR', { required_facility: FACILITY }), ...SPARE],
        roles: [buildRole({ user_id: ADMIN.id, area: null, role: 'Administrator' })],
        // One facility endorsement per student, ending in a year.
        endorsements: students.slice(0, 20).map((s) => buildEndorsement({ user_id: s.id, valid_to: far })),
        trainings: Array.from({ length: 5 }, (_, i) =>
          buildTraining({ user_id: TRAINEE + i, status: 2, started_at: '2025-03-02T10:00:00Z', ratings: [FACILITY] }),
        ),
      }),
    );
    token = await createKey(env, 'races');
    servers = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  /** Sends the request to one instance or the other, by its index. */
  const send = async (i: number, method: string, path: string, body?: unknown): Promise<Answer> => {
    const r = await fetch(`${servers[i % 2]!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const endorsementOf = (cid: number) =>
    readDatabase(env.DATABASE_URL, (db) => db.selectFrom('endorsements').selectAll().where('user_id', '=', cid).executeTakeFirstOrThrow());
  /** Audit entries and events about the endorsement, by action/type. */
  const recordsOf = (id: number) =>
    readDatabase(env.DATABASE_URL, async (db) => ({
      audit: (await db.selectFrom('audit_log').select('action').where('target', '=', `endorsement:${id}`).execute()).map((r) => r.action),
      events: (await db.selectFrom('events').select('body').where('type', 'like', 'endorsement.%').execute())
        .map((r) => JSON.parse(r.body) as { type: string; data: { endorsement: { id: number } } })
        .filter((e) => e.data.endorsement.id === id)
        .map((e) => e.type),
    }));

  it('lets one of 24 revokes of one endorsement succeed; the others are 409, with one audit entry and one event', async () => {
    const { id } = await endorsementOf(CID);
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => send(i, 'DELETE', `/api/endorsements/${id}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(23).fill(409)]);
    const revoked = await endorsementOf(CID);
    expect(revoked.revoked).toBe(1);
    expect(revoked.valid_to).toBe(revoked.revoked_at);
    const winner = answers.find((a) => a.status === 200)!.body as { revoked_at: string };
    expect(new Date(winner.revoked_at).getTime()).toBe(revoked.revoked_at);
    expect(await recordsOf(id)).toEqual({ audit: ['endorsement.revoked'], events: ['endorsement.revoked'] });
  });

  it('never leaves a revoked endorsement ending after its revocation when a revoke races a change of its end', async () => {
    for (let round = 1; round <= 10; round++) {
      const { id } = await endorsementOf(CID + round);
      const later = new Date(Date.now() + 10 * DAY).toISOString();
      const [revoke, change] = await Promise.all([
        send(round, 'DELETE', `/api/endorsements/${id}`),
        send(round + 1, 'PATCH', `/api/endorsements/${id}`, { valid_to: later }),
      ]);
      expect(revoke.status).toBe(200);
      // The change came first (200) or found it revoked (409): never a change after the revocation.
      expect([200, 409]).toContain(change.status);
      const stored = await endorsementOf(CID + round);
      expect({ round, revoked: stored.revoked, end: stored.valid_to }).toEqual({ round, revoked: 1, end: stored.revoked_at });
      const { audit } = await recordsOf(id);
      expect(audit.at(-1)).toBe('endorsement.revoked');
    }
  });

  it('completes a training once, and leaves one facility endorsement when an issue of it races the completion', async () => {
    const trainings = await readDatabase(env.DATABASE_URL, (db) =>
      db.selectFrom('trainings').select(['id', 'user_id']).where('user_id', '>=', TRAINEE).orderBy('user_id').execute(),
    );
    for (const [round, t] of trainings.entries()) {
      const [first, second, issue] = await Promise.all([
        send(round, 'PATCH', `/api/trainings/${t.id}`, { status: -1 }),
        send(round + 1, 'PATCH', `/api/trainings/${t.id}`, { status: -1 }),
        send(round, 'POST', '/api/endorsements', { user_id: t.user_id, type: 'facility', rating: FACILITY }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      expect([201, 409], JSON.stringify(issue.body)).toContain(issue.status);
      const active = await readDatabase(env.DATABASE_URL, (db) =>
        db
          .selectFrom('endorsements')
          .select('id')
          .where('user_id', '=', t.user_id)
          .where('rating', '=', FACILITY)
          .where('revoked', '=', 0)
          .where('valid_to', 'is', null)
          .execute(),
      );
      expect({ round, active: active.length }).toEqual({ round, active: 1 });
    }
  });

  it('closes a task once when its assignee completes and declines it at once on two instances (one 200, the other 409)', async () => {
    for (let round = 0; round < 4; round++) {
      const made = await send(round, 'POST', '/api/tasks', {
        type: 'custom',
        subject_user_id: CID + 30 + round,
        message: 'Please look at this.',
        assignee_id: ADMIN.id,
        creator_id: ADMIN.id,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.id as number;
      const [done, declined] = await Promise.all([
        send(round, 'PATCH', `/api/tasks/${id}`, { status: 'completed', actor_id: ADMIN.id }),
        send(round + 1, 'PATCH', `/api/tasks/${id}`, { status: 'declined', actor_id: ADMIN.id }),
      ]);
      expect({ round, statuses: [done.status, declined.status].sort() }).toEqual({ round, statuses: [200, 409] });
      const winner = done.status === 200 ? 'completed' : 'declined';
      const records = await readDatabase(env.DATABASE_URL, async (db) => ({
        status: (await db.selectFrom('tasks').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status,
        audit: (await db.selectFrom('audit_log').select('action').where('target', '=', `task:${id}`).orderBy('id').execute()).map(
          (r) => r.action,
        ),
        events: (await db.selectFrom('events').select('body').where('type', 'in', ['task.completed', 'task.declined']).execute()).filter(
          (e) => (JSON.parse(e.body) as { data: { task: { id: number } } }).data.task.id === id,
        ).length,
      }));
      expect(records).toEqual({ status: winner, audit: ['task.created', `task.${winner}`], events: 1 });
    }
  });

  it('creates a new facility once when six PUTs of its name arrive at once on two instances (one 201, the others 200)', async () => {
    for (let round = 0; round < 3; round++) {
      const name = `T2 RACE${round} CTR`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          send(round + i, 'PUT', `/api/facilities/${encodeURIComponent(name)}`, { tier: i % 2 ? 'T1' : 'T2' }),
        ),
      );
      expect({ round, statuses: answers.map((a) => a.status).sort() }).toEqual({ round, statuses: [200, 200, 200, 200, 200, 201] });
      const audit = await readDatabase(env.DATABASE_URL, async (db) =>
        (await db.selectFrom('audit_log').select('action').where('target', '=', `facility:${name}`).execute()).map((r) => r.action).sort(),
      );
      expect({ round, audit }).toEqual({ round, audit: ['facility.created', ...Array(5).fill('facility.updated')] });
    }
  });

  it('refuses a position removal or a booking on it, never both through nor a server error, when they race', async () => {
    const cookie = `sector_session=${await signInOnDatabase(env.DATABASE_URL, ADMIN)}`;
    const page = await fetch(`${servers[0]!.url}/staff/positions`, { headers: { cookie } });
    const csrf = csrfOf(await page.text());
    const day = new Date(Date.now() + 3 * DAY);
    const date = `${day.getUTCDate()}/${day.getUTCMonth() + 1}/${day.getUTCFullYear()}`;
    for (const [round, { callsign }] of SPARE.entries()) {
      const [removal, booking] = await Promise.all([
        fetch(`${servers[round % 2]!.url}/staff/positions/${callsign}/remove`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _csrf: csrf }).toString(),
        }).then((r) => r.status),
        send(round + 1, 'POST', '/api/bookings/create', { cid: CID, date, start_at: '10:00', end_at: '11:00', position: callsign }),
      ]);
      const stored = await readDatabase(env.DATABASE_URL, (db) =>
        db.selectFrom('positions').select('id').where('callsign', '=', callsign).executeTakeFirst(),
      );
      // The booking first (the removal is 409), or the removal first (the booking names no position, 422).
      expect({ round, removal, booking: booking.status, kept: stored !== undefined }).toEqual(
        booking.status === 201 ? { round, removal: 409, booking: 201, kept: true } : { round, removal: 303, booking: 422, kept: false },
      );
    }
  });

  it('grants a role once and revokes it once when the same form is sent six times at once', async () => {
    const cookie = `sector_session=${await signInOnDatabase(env.DATABASE_URL, ADMIN)}`;
    const student = CID + 30;
    const csrf = csrfOf(await (await fetch(`${servers[0]!.url}/staff/users/${student}`, { headers: { cookie } })).text());
    const post = (i: number, path: string, fields: Record<string, string>) =>
      fetch(`${servers[i % 2]!.url}/staff/users/${student}/${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
      }).then((r) => r.status);
    const held = () =>
      readDatabase(env.DATABASE_URL, async (db) => ({
        roles: (await db.selectFrom('roles').select('role').where('user_id', '=', student).execute()).length,
        audit: (await db.selectFrom('audit_log').select('action').where('target', '=', `user:${student}`).orderBy('id').execute()).map(
          (r) => r.action,
        ),
      }));
    for (const [role, area] of [
      ['Mentor', 'Denmark'],
      ['Administrator', ''],
    ]) {
      const grants = await Promise.all(Array.from({ length: 6 }, (_, i) => post(i, 'roles', { role: role!, area: area! })));
      expect(grants.sort()).toEqual([303, 409, 409, 409, 409, 409]);
      expect((await held()).roles).toBe(1);
      const revokes = await Promise.all(Array.from({ length: 6 }, (_, i) => post(i, 'roles/revoke', { role: role!, area: area! })));
      expect(revokes.sort()).toEqual([303, 409, 409, 409, 409, 409]);
    }
    expect(await held()).toEqual({ roles: 0, audit: ['role.granted', 'role.revoked', 'role.granted', 'role.revoked'] });
  });

  it('opens one training when a member sends the application form six times at once', async () => {
    const cookie = `sector_session=${await signInOnDatabase(env.DATABASE_URL, APPLICANT)}`;
    const csrf = csrfOf(await (await fetch(`${servers[0]!.url}/training/apply`, { headers: { cookie } })).text());
    const form = {
      _csrf: csrf,
      area: 'Denmark',
      ratings: 'S2',
      motivation: 'I would like to control Kastrup Tower. '.repeat(3),
      experience: '2',
    };
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fetch(`${servers[i % 2]!.url}/training/apply`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        }).then((r) => r.status),
      ),
    );
    expect(answers.sort()).toEqual([303, 409, 409, 409, 409, 409]);
    const trainings = await readDatabase(env.DATABASE_URL, (db) =>
      db.selectFrom('trainings').select('id').where('user_id', '=', APPLICANT.id).execute(),
    );
    expect(trainings).toHaveLength(1);
  });
});
