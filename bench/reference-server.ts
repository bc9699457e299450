// The same-work reference: plain Fastify serving each scenario with the SQL Sector runs for it
// (better-sqlite3, the same pragmas, on a copy of the same database file), presented by Sector's
// own presenters and serialised with JSON.stringify. No cache, no auth, no hooks, no schemas: what
// Sector adds on top of this is what the benchmark measures. Prints its port on stdout.
//   node --import tsx bench/reference-server.ts DATABASE_FILE
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import type { PositionRow } from '../src/core/db/schema.js';
import { bookingDiff } from '../src/features/audit/domain/index.js';
import { parseIncludes } from '../src/features/members/domain/index.js';
import { bookingCreatedBody, bookingListBody } from '../src/features/bookings/bookings.view.js';
import { presentPosition } from '../src/features/positions/positions.view.js';
import { presentUsers } from '../src/features/users/users.view.js';
import type { BookingView } from '../src/features/bookings/bookings.repository.js';
import type { UsersData } from '../src/features/users/users.repository.js';
import { bookingEvents } from '../src/features/bookings/events.js';
import { USERS_RELATIONS } from './lib/scenarios.js';

const file = process.argv[2];
if (!file) throw new Error('usage: reference-server.ts DATABASE_FILE');
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${process.env.SQLITE_SYNCHRONOUS === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');

// Sector's statements, as its repositories generate them (bench/README.md says how to list them).
// Each is prepared once, at start, as a plain better-sqlite3 handler is written (the driver's own
// documentation prepares a statement once and runs it many times).
const BOOKING_VIEW =
  'select "b".*, "p"."callsign", "u"."first_name", "u"."last_name" from "bookings" as "b" inner join "positions" as "p" on "p"."id" = "b"."position_id" inner join "users" as "u" on "u"."id" = "b"."user_id"';
const ACTIVE_ENDORSEMENT =
  '("endorsements"."revoked" = 0 and "endorsements"."valid_from" <= ? and ("endorsements"."valid_to" is null or "endorsements"."valid_to" > ?))';
const statement = (text: string) => db.prepare(text);
const sql = {
  positions: statement('select * from "positions"'),
  bookings: statement(`${BOOKING_VIEW} where "b"."deleted" = ? order by "b"."time_start", "b"."id"`),
  // A create reads what a batch reads, by lists of one (users, positions, endorsements, its booking).
  bookingsByIds: statement(`${BOOKING_VIEW} where "b"."id" in (?) order by "b"."id"`),
  apiKey: statement('select * from "api_keys" where "id" = ?'),
  users: statement(
    'select "users"."id", "users"."rating", "users"."id" in (select "user_area_activity"."user_id" from "user_area_activity" where "user_area_activity"."active" = ?) as "atc_active", ' +
      '"users"."email", "users"."first_name", "users"."last_name", "users"."region", "users"."division", "users"."subdivision" from "users" ' +
      `where ("users"."subdivision" in (?) or "users"."id" in (select "endorsements"."user_id" from "endorsements" where ${ACTIVE_ENDORSEMENT}) ` +
      'or "users"."id" in (select "roles"."user_id" from "roles") or "users"."id" in (select "trainings"."user_id" from "trainings" where "trainings"."status" >= ?)) order by "users"."id"',
  ),
  areas: statement('select "areas"."id", "areas"."name" from "areas"'),
  activity: statement(
    'select "user_area_activity"."user_id", "user_area_activity"."area_id" from "user_area_activity" where "user_area_activity"."active" = ?',
  ),
  endorsements: statement(
    'select "endorsements"."id", "endorsements"."user_id", "endorsements"."type", "endorsements"."rating", "endorsements"."valid_from", "endorsements"."valid_to" ' +
      `from "endorsements" where ${ACTIVE_ENDORSEMENT} order by "endorsements"."user_id", "endorsements"."valid_from", "endorsements"."id"`,
  ),
  endorsementAreas: statement(
    'select "endorsement_areas"."endorsement_id", "endorsement_areas"."area_id" from "endorsement_areas" ' +
      `inner join "endorsements" on "endorsements"."id" = "endorsement_areas"."endorsement_id" where ${ACTIVE_ENDORSEMENT}`,
  ),
  endorsementPositions: statement(
    'select "endorsement_positions"."endorsement_id", "positions"."callsign" from "endorsement_positions" ' +
      'inner join "endorsements" on "endorsements"."id" = "endorsement_positions"."endorsement_id" ' +
      `inner join "positions" on "positions"."id" = "endorsement_positions"."position_id" where ${ACTIVE_ENDORSEMENT}`,
  ),
  roles: statement('select "roles"."user_id", "roles"."area_id", "roles"."role" from "roles" where "roles"."area_id" is not null'),
  trainings: statement(
    'select "trainings"."id", "trainings"."user_id", "trainings"."area_id", "trainings"."type", "trainings"."status", "trainings"."created_at", "trainings"."started_at", "training_ratings"."rating" ' +
      'from "trainings" left join "training_ratings" on "training_ratings"."training_id" = "trainings"."id" where "trainings"."status" >= ? ' +
      'order by "trainings"."user_id", "trainings"."created_at", "trainings"."id", "training_ratings"."rating"',
  ),
  trainingFacilities: statement(
    'select "training_facilities"."training_id", "training_facilities"."name" from "training_facilities" ' +
      'inner join "trainings" on "trainings"."id" = "training_facilities"."training_id" where "trainings"."status" >= ? ' +
      'order by "training_facilities"."training_id", "training_facilities"."name"',
  ),
  user: statement('select "id", "rating" from "users" where "id" in (?)'),
  position: statement('select "id", "callsign", "rating", "required_facility", "area_id" from "positions" where "callsign" in (?)'),
  facilityEndorsements: statement(
    'select "user_id", "rating", "valid_from", "valid_to", "revoked" from "endorsements" where "user_id" in (?) and "type" = ? and "rating" in (?)',
  ),
  insertBooking: statement(
    'insert into "bookings" ("user_id", "position_id", "time_start", "time_end", "training", "exam", "event", "training_forced", "source", "network_booking", "deleted", "created_at", "updated_at") ' +
      'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "id"',
  ),
  insertAudit: statement(
    'insert into "audit_log" ("at", "actor", "actor_name", "action", "target", "before", "after") values (?, ?, ?, ?, ?, ?, ?)',
  ),
  insertEvent: statement(
    'insert into "events" ("id", "type", "booking_id", "body", "created_at", "network_push") values (?, ?, ?, ?, ?, ?)',
  ),
};

const included = parseIncludes(USERS_RELATIONS, 'newer');
if (!included.ok) throw new Error(`unknown relations: ${included.unknown.join(', ')}`);
const ALL = included.includes;

function usersData(now: number): UsersData {
  // Sector reads a users list in one read transaction.
  return db.transaction((): UsersData => {
    const users = sql.users.all(1, 'SCA', now, now, 0) as UsersData['users'];
    // SQLite returns 0 or 1: a boolean, as Sector's repository makes it.
    for (const u of users as Array<{ atc_active: unknown }>) u.atc_active = Boolean(u.atc_active);
    return {
      users,
      areas: sql.areas.all() as UsersData['areas'],
      activity: sql.activity.all(1) as UsersData['activity'],
      endorsements: sql.endorsements.all(now, now) as UsersData['endorsements'],
      endorsementAreas: sql.endorsementAreas.all(now, now) as UsersData['endorsementAreas'],
      endorsementPositions: sql.endorsementPositions.all(now, now) as UsersData['endorsementPositions'],
      roles: sql.roles.all() as UsersData['roles'],
      trainings: sql.trainings.all(0) as UsersData['trainings'],
      trainingFacilities: sql.trainingFacilities.all(0) as UsersData['trainingFacilities'],
    };
  })();
}

interface CreateBody {
  cid: number;
  date: string;
  start_at: string;
  end_at: string;
  position: string;
}

/** The benchmark's create bodies (bench/lib/slots.ts): d/m/Y and H:i, an end before the start is the next day. */
function times(body: CreateBody): [number, number] {
  const [d, m, y] = body.date.split('/').map(Number) as [number, number, number];
  const at = (hm: string): number => Date.UTC(y, m - 1, d, Number(hm.slice(0, 2)), Number(hm.slice(3, 5)));
  const start = at(body.start_at);
  const end = at(body.end_at);
  return [start, end <= start ? end + 86_400_000 : end];
}

// One transaction per create: the look-ups (with the user's facility endorsements for a position that
// requires one), the booking, its audit entry and its event (the outbox row).
const create = db.transaction((body: CreateBody, keyId: string, at: number): BookingView => {
  const user = sql.user.get(body.cid) as { id: number } | undefined;
  const position = sql.position.get(body.position) as { id: number; required_facility: string | null } | undefined;
  if (!user || !position) throw new Error('unknown user or position');
  if (position.required_facility) sql.facilityEndorsements.all(user.id, 'facility', position.required_facility);
  const [start, end] = times(body);
  const { id } = sql.insertBooking.get(user.id, position.id, start, end, 0, 0, 0, 0, 'CC', null, 0, at, at) as { id: number };
  const booking = sql.bookingsByIds.get(id) as BookingView;
  const diff = bookingDiff(null, booking)!;
  sql.insertAudit.run(at, `key:${keyId}`, 'bench', 'booking.created', `booking:${id}`, null, JSON.stringify(diff.after));
  for (const e of bookingEvents([{ kind: 'created', before: null, after: booking }], at)) {
    sql.insertEvent.run(e.id, e.type, e.booking_id, e.body, e.created_at, e.network_push);
  }
  return booking;
});

/** Sector reads the key's row on each keyed request: the reference reads it too, and checks nothing. */
function readKey(authorization: string | undefined): string {
  const id = authorization?.slice('Bearer sector_'.length, 'Bearer sector_'.length + 16) ?? '';
  sql.apiKey.get(id);
  return id;
}

const app = Fastify({ logger: false });
app.get('/api/positions', async () => {
  const rows = sql.positions.all() as PositionRow[];
  // Sorted in byte order after the query, as Sector's repository does.
  rows.sort((a, b) => (a.callsign < b.callsign ? -1 : a.callsign > b.callsign ? 1 : 0));
  return { data: rows.map(presentPosition) };
});
app.get('/api/bookings', async (request) => {
  if (!request.headers.authorization) return bookingListBody(sql.bookings.all(0) as BookingView[], 'reduced');
  readKey(request.headers.authorization);
  return bookingListBody(sql.bookings.all(0) as BookingView[], 'full');
});
app.get('/api/users', async (request) => {
  readKey(request.headers.authorization);
  return presentUsers(usersData(Date.now()), ALL, 'newer');
});
app.post('/api/bookings/create', async (request, reply) => {
  const keyId = readKey(request.headers.authorization);
  const booking = create.immediate(request.body as CreateBody, keyId, Date.now());
  return reply.code(201).send(bookingCreatedBody(booking, false));
});

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${new URL(address).port}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => db.close()));
