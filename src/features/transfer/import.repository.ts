import type { Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database } from '../../core/db/schema.js';
import { RATINGS } from '../members/domain/ratings.js';
import { isoMicros } from '../../core/domain/time.js';
import {
  ImportError,
  type ImportEndorsement,
  type ImportPlan,
  type ImportPosition,
  type ImportRole,
  type ImportUser,
} from './import/plan.js';
import { pathKey, quote } from './import/quote.js';
import { type ImportedBooking, importBookings } from './import-bookings.repository.js';
import { chunks } from '../../core/db/chunks.js';
import { type Keyed, keyOf, replaceLinks, type Row, rowsWhereIn, writeKeyed } from './import-rows.repository.js';
import { dedupe, importTrainings } from './import-trainings.repository.js';
import { importTemplates } from './import-templates.repository.js';
import { importFacilities } from './import-facilities.repository.js';
import { importTasks } from './import-tasks.repository.js';
import { importFeedback } from './import-feedback.repository.js';
import { importSettings } from './import-settings.repository.js';
import { importSweatbox } from './import-sweatbox.repository.js';
import { importVotes } from './import-votes.repository.js';

export interface ImportSummary {
  areas: number;
  users: number;
  positions: number;
  endorsements: number;
  roles: number;
  trainings: number;
  bookings: number;
  templates: number;
  facilities: number;
  tasks: number;
  feedback: number;
  votes: number;
  sweatbox_sessions: number;
  settings: number;
}

/** Ids of what records reference, each refusing an unknown name with the record's path. */
interface Refs {
  areaId(name: string, path: string): number;
  userId(id: number, path: string): number;
  positionId(callsign: string, path: string): number;
}

const required = (path: string, field: string, what: string) =>
  new ImportError(`${path}.${field}: is required, as ${what} does not exist yet`);

export interface ImportOutcome {
  summary: ImportSummary;
  /** The bookings created or changed, before and after. */
  bookings: ImportedBooking[];
}

/**
 * Applies a parsed import inside the caller's transaction; throws ImportError naming a path. A
 * record changes only the fields it gives. Natural keys are unique in the plan (parse.ts), as
 * PostgreSQL refuses to update one row twice in a multi-row upsert.
 */
async function applyImport(
  db: Kysely<Database>,
  dialect: Dialect,
  plan: ImportPlan,
  now: number,
  withViews: boolean,
): Promise<ImportOutcome> {
  const areaId = await importAreas(db, plan.areas);
  await importUsers(db, plan.users, areaId, now);
  const userId = await referencedUsers(db, plan);
  await importPositions(db, plan.positions, areaId);
  const { positionId, callsignOf } = await positionRefs(db);
  const refs: Refs = { areaId, userId, positionId };
  await importEndorsements(db, plan.endorsements, refs, now);
  await importRoles(db, plan.roles, refs);
  await importTrainings(db, plan.trainings, refs);
  const bookings = await importBookings(db, dialect, plan.bookings, { userId, positionId, callsignOf }, now, withViews);
  await importTemplates(db, plan.report_templates ?? [], areaId, now);
  await importFacilities(db, plan.facilities ?? [], now);
  // Tasks (§21) and feedback (§23), after the users, trainings and positions they name.
  await importTasks(db, dialect, plan.tasks ?? []);
  await importFeedback(db, dialect, plan.feedback ?? [], positionId, now);
  // Votes, sweatbox sessions and members' settings (contract §23, §24).
  await importVotes(db, dialect, plan.votes ?? [], now);
  await importSweatbox(db, plan.sweatbox ?? [], positionId, now);
  await importSettings(db, plan.settings ?? [], now);

  const summary = {
    areas: plan.areas.length,
    users: plan.users.length,
    positions: plan.positions.length,
    endorsements: plan.endorsements.length,
    roles: plan.roles.length,
    trainings: plan.trainings.length,
    bookings: plan.bookings.length,
    templates: plan.report_templates?.length ?? 0,
    facilities: plan.facilities?.length ?? 0,
    tasks: plan.tasks?.length ?? 0,
    feedback: plan.feedback?.length ?? 0,
    votes: plan.votes?.length ?? 0,
    sweatbox_sessions: plan.sweatbox?.length ?? 0,
    settings: plan.settings?.length ?? 0,
  };
  return { summary, bookings };
}

/** Areas, by name: every name referenced must exist after this step (from the file or the database). */
async function importAreas(db: Kysely<Database>, areas: string[]): Promise<Refs['areaId']> {
  for (const part of chunks([...new Set(areas)])) {
    await db
      .insertInto('areas')
      .values(part.map((name) => ({ name })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
  const areaIds = new Map((await db.selectFrom('areas').select(['id', 'name']).execute()).map((a) => [a.name, a.id]));
  return (name, path) => {
    const id = areaIds.get(name);
    if (id === undefined) throw new ImportError(`${path}: unknown area ${quote(name)}`);
    return id;
  };
}

/** Users referenced by other sections must exist (in the file, imported by now, or already in the database). */
async function referencedUsers(db: Kysely<Database>, plan: ImportPlan): Promise<Refs['userId']> {
  const referenced = [...plan.endorsements, ...plan.roles, ...plan.trainings].map((r) => r.user_id);
  // A mentor may be named by nothing else in the plan.
  for (const t of plan.trainings) referenced.push(...(t.mentors ?? []));
  for (const b of plan.bookings) if (b.set.user_id !== undefined) referenced.push(b.set.user_id);
  const knownUsers = new Set((await rowsWhereIn(db, 'users', 'id', referenced)).map((r) => r.id as number));
  return (id, path) => {
    if (!knownUsers.has(id)) throw new ImportError(`${path}.user_id: unknown user ${id}`);
    return id;
  };
}

/** Every position by callsign (the file's, imported by now, and the stored ones), both ways. */
async function positionRefs(db: Kysely<Database>): Promise<{ positionId: Refs['positionId']; callsignOf: (id: number) => string }> {
  const positionIds = new Map((await db.selectFrom('positions').select(['id', 'callsign']).execute()).map((p) => [p.callsign, p.id]));
  const callsigns = new Map([...positionIds].map(([callsign, id]) => [id, callsign]));
  return {
    positionId: (callsign, path) => {
      const id = positionIds.get(callsign);
      if (id === undefined) throw new ImportError(`${path}: unknown position ${quote(callsign)}`);
      return id;
    },
    callsignOf: (id) => callsigns.get(id)!,
  };
}

/** Users, by id: a new one needs a rating; its other fields may be null. */
async function importUsers(db: Kysely<Database>, users: ImportUser[], areaId: Refs['areaId'], now: number): Promise<void> {
  const stored = new Map(
    (
      await rowsWhereIn(
        db,
        'users',
        'id',
        users.map((u) => u.id),
      )
    ).map((r) => [r.id as number, r]),
  );
  const items = users.map((u): Keyed => {
    const row = stored.get(u.id);
    const { created_at, ...set } = u.set;
    const changes = { ...set, updated_at: set.updated_at ?? now };
    if (row) return { stored: row, changes: created_at === undefined ? changes : { ...changes, created_at } };
    if (u.set.rating === undefined) throw required(u.path, 'rating', `user ${u.id}`);
    const empty = { email: null, first_name: null, last_name: null, region: null, division: null, subdivision: null, last_login_at: null };
    return { stored: undefined, created: { id: u.id, ...empty, ...changes, created_at: created_at ?? now } };
  });
  await writeKeyed(db, 'users', ['id'], items);
  // atc_active_areas: the areas listed are set; the others (all, when it is omitted) keep theirs.
  const activity = users.flatMap((u) =>
    u.atc_active_areas.map(([area, active]) => ({
      user_id: u.id,
      area_id: areaId(area, `${u.path}.atc_active_areas.${pathKey(area)}`),
      active: active ? 1 : 0,
      // Where activity is computed from sessions, an imported `true` starts a grace (a completed
      // training, a returning controller) unless its record gives one, or none (null); a `false`
      // ends any grace.
      granted_at: active ? (u.atc_grace_start.has(area) ? u.atc_grace_start.get(area)! : now) : null,
    })),
  );
  for (const part of chunks(activity)) {
    await db
      .insertInto('user_area_activity')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'area_id'])
          .doUpdateSet((eb) => ({ active: eb.ref('excluded.active'), granted_at: eb.ref('excluded.granted_at') })),
      )
      .execute();
  }
}

/** Positions, by callsign: a new one needs a name and a frequency, and is S1 without a rating. */
async function importPositions(db: Kysely<Database>, positions: ImportPosition[], areaId: Refs['areaId']): Promise<void> {
  const stored = new Map(
    (
      await rowsWhereIn(
        db,
        'positions',
        'callsign',
        positions.map((p) => p.callsign),
      )
    ).map((r) => [r.callsign as string, r]),
  );
  const items = positions.map((p): Keyed => {
    const { area, ...set } = p.set;
    const changes: Row = { ...set, ...(area === undefined ? {} : { area_id: area === null ? null : areaId(area, `${p.path}.area`) }) };
    const row = stored.get(p.callsign);
    if (row) return { stored: row, changes };
    for (const field of ['name', 'frequency'] as const)
      if (p.set[field] === undefined) throw required(p.path, field, `position ${p.callsign}`);
    return { stored: undefined, created: { callsign: p.callsign, area_id: null, rating: RATINGS.S1, required_facility: null, ...changes } };
  });
  await writeKeyed(db, 'positions', ['callsign'], items, true);
}

// Endorsements by (user, type, valid_from); a new rated one needs a rating. A given list of areas or
// positions replaces the stored links, an omitted one keeps them.
async function importEndorsements(db: Kysely<Database>, endorsements: ImportEndorsement[], refs: Refs, now: number): Promise<void> {
  const KEY = ['user_id', 'type', 'valid_from'];
  const keyOfRow = (r: Row) => keyOf(KEY.map((k) => r[k]));
  const stored = new Map(
    (
      await rowsWhereIn(
        db,
        'endorsements',
        'user_id',
        endorsements.map((e) => e.user_id),
      )
    ).map((r) => [keyOfRow(r), r]),
  );
  const links = endorsements.map((e) => ({
    areas: e.areas?.map((a, j) => ({ area_id: refs.areaId(a, `${e.path}.areas[${j}]`) })),
    positions: e.positions?.map((c, j) => ({ position_id: refs.positionId(c, `${e.path}.positions[${j}]`) })),
  }));
  const items = endorsements.map((e): Keyed => {
    refs.userId(e.user_id, e.path);
    const key = { user_id: e.user_id, type: e.type, valid_from: e.valid_from };
    const row = stored.get(keyOfRow(key));
    const { revoked, revoked_at, created_at, ...changes } = e.set as Row &
      Pick<ImportEndorsement['set'], 'revoked' | 'revoked_at' | 'created_at'>;
    if (revoked !== undefined) {
      changes.revoked = revoked ? 1 : 0;
      // Revoked at the time the file gives; else, when it is stored revoked, the time stored;
      // else, when it was live until this import, now; a new one revoked at an unknown time
      // was revoked long ago (it must not look recent to the deprecated solo/s1 lists).
      changes.revoked_at = !revoked ? null : (revoked_at ?? (row ? (row.revoked === 1 ? row.revoked_at : now) : null));
    }
    // A new end is an expiry still to publish (as when staff change it), unless the record says otherwise.
    if (row && changes.valid_to !== undefined && changes.valid_to !== row.valid_to && changes.expiry_published_at === undefined)
      changes.expiry_published_at = null;
    if (row) return { stored: row, changes: created_at === undefined ? changes : { ...changes, created_at } };
    if (e.set.rating === undefined && e.type !== 'solo' && e.type !== 's1') {
      throw required(e.path, 'rating', `${e.type} endorsement of user ${e.user_id} from ${isoMicros(e.valid_from)}`);
    }
    return {
      stored: undefined,
      created: {
        ...key,
        ...{ rating: null, valid_to: null, revoked: 0, revoked_at: null, issued_by: null, expiry_published_at: null },
        ...changes,
        created_at: created_at ?? now,
      },
    };
  });
  const ids = await writeKeyed(db, 'endorsements', KEY, items, true);
  const given = (pick: 'areas' | 'positions') =>
    links.flatMap((l, i) => (l[pick] === undefined ? [] : [{ id: ids[i]!, links: dedupe(l[pick]) }]));
  await replaceLinks(db, 'endorsement_areas', 'endorsement_id', given('areas'));
  await replaceLinks(db, 'endorsement_positions', 'endorsement_id', given('positions'));
}

/** Roles, by (user, area, role): a role is nothing but its key, so one already held stays as it is. */
async function importRoles(db: Kysely<Database>, roles: ImportRole[], refs: Refs): Promise<void> {
  for (const part of chunks(roles)) {
    await db
      .insertInto('roles')
      .values(
        part.map((r) => ({
          user_id: refs.userId(r.user_id, r.path),
          area_id: r.area === null ? null : refs.areaId(r.area, `${r.path}.area`),
          role: r.role,
        })),
      )
      // Either key: (user, area, role), or (user, role) of a division-wide role.
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

export function importRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** withViews false: the bookings are not read back (no events will be made of them). */
    apply: (plan: ImportPlan, now: number, withViews = true) => applyImport(db, dialect, plan, now, withViews),
  };
}

export type ImportRepository = ReturnType<typeof importRepository>;
