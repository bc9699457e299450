import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { isBookingOverlap } from '../db/transaction.js';
import { ImportError, type ImportPlan } from '../import/parse.js';
import { quote } from '../import/quote.js';

const CHUNK = 400;
function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface ImportSummary {
  areas: number;
  users: number;
  positions: number;
  endorsements: number;
  roles: number;
  trainings: number;
  bookings: number;
}

/**
 * Applies a parsed import inside the caller's transaction; throws ImportError naming a path.
 * The plan holds each natural key once (parse.ts refuses repeats): the multi-row upserts below
 * rely on it, as PostgreSQL refuses to update one row twice in a statement.
 */
export async function applyImport(db: Kysely<Database>, dialect: Dialect, plan: ImportPlan, now: number): Promise<ImportSummary> {
  // Areas: every name referenced must exist after this step (from the file or the database).
  for (const part of chunks([...new Set(plan.areas)])) {
    await db.insertInto('areas').values(part.map((name) => ({ name }))).onConflict((oc) => oc.column('name').doNothing()).execute();
  }
  const areaIds = new Map((await db.selectFrom('areas').select(['id', 'name']).execute()).map((a) => [a.name, a.id]));
  const areaId = (name: string, path: string): number => {
    const id = areaIds.get(name);
    if (id === undefined) throw new ImportError(`${path}: unknown area ${quote(name)}`);
    return id;
  };

  for (const part of chunks(plan.users)) {
    await db
      .insertInto('users')
      .values(part.map(({ atc_active_areas: _a, path: _p, ...u }) => ({ ...u, created_at: now, updated_at: now })))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          email: eb.ref('excluded.email'),
          first_name: eb.ref('excluded.first_name'),
          last_name: eb.ref('excluded.last_name'),
          rating: eb.ref('excluded.rating'),
          region: eb.ref('excluded.region'),
          division: eb.ref('excluded.division'),
          subdivision: eb.ref('excluded.subdivision'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
  const activity = plan.users.flatMap((u) =>
    u.atc_active_areas.map(([area, active]) => ({ user_id: u.id, area_id: areaId(area, `${u.path}.atc_active_areas.${area}`), active: active ? 1 : 0 })),
  );
  for (const part of chunks(activity)) {
    await db
      .insertInto('user_area_activity')
      .values(part)
      .onConflict((oc) => oc.columns(['user_id', 'area_id']).doUpdateSet((eb) => ({ active: eb.ref('excluded.active') })))
      .execute();
  }

  // Users referenced by other sections must exist (in the file or already in the database).
  const referenced = [...new Set([...plan.endorsements, ...plan.roles, ...plan.trainings, ...plan.bookings].map((r) => r.user_id))];
  const knownUsers = new Set<number>();
  for (const part of chunks(referenced)) {
    for (const r of await db.selectFrom('users').select('id').where('id', 'in', part).execute()) knownUsers.add(r.id);
  }
  const userId = (id: number, path: string): number => {
    if (!knownUsers.has(id)) throw new ImportError(`${path}.user_id: unknown user ${id}`);
    return id;
  };

  for (const p of plan.positions) if (p.area !== null) areaId(p.area, `${p.path}.area`);
  for (const part of chunks(plan.positions)) {
    await db
      .insertInto('positions')
      .values(part.map(({ path: _p, area, ...p }) => ({ ...p, area_id: area === null ? null : areaIds.get(area)! })))
      .onConflict((oc) =>
        oc.column('callsign').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          frequency: eb.ref('excluded.frequency'),
          area_id: eb.ref('excluded.area_id'),
          rating: eb.ref('excluded.rating'),
          required_facility: eb.ref('excluded.required_facility'),
        })),
      )
      .execute();
  }
  const positionIds = new Map((await db.selectFrom('positions').select(['id', 'callsign']).execute()).map((p) => [p.callsign, p.id]));
  const positionId = (callsign: string, path: string): number => {
    const id = positionIds.get(callsign);
    if (id === undefined) throw new ImportError(`${path}: unknown position ${quote(callsign)}`);
    return id;
  };

  // Endorsements: upsert by (user, type, valid_from), then replace their areas and positions.
  const endorsementLinks: Array<{ areas: number[]; positions: number[] }> = plan.endorsements.map((e) => ({
    areas: e.areas.map((a, j) => areaId(a, `${e.path}.areas[${j}]`)),
    positions: e.positions.map((c, j) => positionId(c, `${e.path}.positions[${j}]`)),
  }));
  const endorsementIds: number[] = [];
  for (const part of chunks(plan.endorsements)) {
    const rows = await db
      .insertInto('endorsements')
      .values(
        part.map((e) => ({
          user_id: userId(e.user_id, e.path),
          type: e.type,
          rating: e.rating,
          valid_from: e.valid_from,
          valid_to: e.valid_to,
          revoked: e.revoked ? 1 : 0,
          // A revocation the source gives no time for happened at an unknown, so long-past,
          // moment: it must not look recent to the deprecated solo/s1 lists.
          revoked_at: e.revoked ? e.revoked_at : null,
          created_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'type', 'valid_from']).doUpdateSet((eb) => ({
          rating: eb.ref('excluded.rating'),
          valid_to: eb.ref('excluded.valid_to'),
          revoked: eb.ref('excluded.revoked'),
          // A revoked endorsement keeps the time the import gives; without one, the time it was
          // first seen revoked: now if it was live until this import, else what is stored.
          // An endorsement imported as not revoked has none.
          revoked_at: eb
            .case()
            .when(eb.ref('excluded.revoked'), '=', 1)
            .then(
              eb.fn.coalesce(
                eb.ref('excluded.revoked_at'),
                eb.case().when(eb.ref('endorsements.revoked'), '=', 1).then(eb.ref('endorsements.revoked_at')).else(eb.val(now)).end(),
              ),
            )
            .else(null)
            .end(),
        })),
      )
      .returning('id')
      .execute();
    endorsementIds.push(...rows.map((r) => r.id));
  }
  for (const part of chunks(endorsementIds)) {
    await db.deleteFrom('endorsement_areas').where('endorsement_id', 'in', part).execute();
    await db.deleteFrom('endorsement_positions').where('endorsement_id', 'in', part).execute();
  }
  const areaLinks = endorsementIds.flatMap((id, i) => [...new Set(endorsementLinks[i]!.areas)].map((area_id) => ({ endorsement_id: id, area_id })));
  const positionLinks = endorsementIds.flatMap((id, i) => [...new Set(endorsementLinks[i]!.positions)].map((position_id) => ({ endorsement_id: id, position_id })));
  for (const part of chunks(areaLinks)) await db.insertInto('endorsement_areas').values(part).execute();
  for (const part of chunks(positionLinks)) await db.insertInto('endorsement_positions').values(part).execute();

  for (const part of chunks(plan.roles)) {
    await db
      .insertInto('roles')
      .values(part.map((r) => ({ user_id: userId(r.user_id, r.path), area_id: areaId(r.area, `${r.path}.area`), role: r.role })))
      .onConflict((oc) => oc.columns(['user_id', 'area_id', 'role']).doNothing())
      .execute();
  }

  const trainingIds: number[] = [];
  for (const part of chunks(plan.trainings)) {
    const rows = await db
      .insertInto('trainings')
      .values(
        part.map((t) => ({
          user_id: userId(t.user_id, t.path),
          area_id: areaId(t.area, `${t.path}.area`),
          type: t.type,
          status: t.status,
          created_at: t.created_at,
          started_at: t.started_at,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'area_id', 'created_at']).doUpdateSet((eb) => ({
          type: eb.ref('excluded.type'),
          status: eb.ref('excluded.status'),
          started_at: eb.ref('excluded.started_at'),
        })),
      )
      .returning('id')
      .execute();
    trainingIds.push(...rows.map((r) => r.id));
  }
  for (const part of chunks(trainingIds)) await db.deleteFrom('training_ratings').where('training_id', 'in', part).execute();
  const ratingRows = trainingIds.flatMap((id, i) => [...new Set(plan.trainings[i]!.ratings)].map((rating) => ({ training_id: id, rating })));
  for (const part of chunks(ratingRows)) await db.insertInto('training_ratings').values(part).execute();

  // Bookings one at a time, so an overlap (refused by the database) names its path.
  for (const b of plan.bookings) {
    const row = {
      user_id: userId(b.user_id, b.path),
      position_id: positionId(b.callsign, `${b.path}.callsign`),
      source: b.source,
      network_booking: b.network_booking,
      time_start: b.time_start,
      time_end: b.time_end,
      training: b.training,
      // An imported tag is the division's choice, never a forced one.
      training_forced: 0,
      exam: b.exam,
      event: b.event,
      deleted: b.deleted,
      created_at: now,
      updated_at: now,
    };
    try {
      if (b.id === null) {
        await db.insertInto('bookings').values(row).execute();
      } else {
        const { created_at: _c, ...changes } = row;
        await db
          .insertInto('bookings')
          .values({ ...row, id: b.id })
          .onConflict((oc) => oc.column('id').doUpdateSet(changes))
          .execute();
      }
    } catch (err) {
      if (isBookingOverlap(err)) throw new ImportError(`${b.path}: overlaps another booking of ${b.callsign}`);
      throw err;
    }
  }

  if (dialect === 'postgres' && plan.bookings.some((b) => b.id !== null)) {
    // Explicit ids do not advance an identity sequence; move it past them so later inserts do not collide.
    await sql`SELECT setval(pg_get_serial_sequence('bookings', 'id'), GREATEST((SELECT max(id) FROM bookings), 1))`.execute(db);
  }

  return {
    areas: plan.areas.length,
    users: plan.users.length,
    positions: plan.positions.length,
    endorsements: plan.endorsements.length,
    roles: plan.roles.length,
    trainings: plan.trainings.length,
    bookings: plan.bookings.length,
  };
}

/**
 * Inside a write transaction: true when the database already holds users or bookings, the
 * answer holding until the transaction ends. On PostgreSQL the users table is locked against
 * other writers first (readers go on), so two transactions cannot both find it empty and both
 * fill it: the second waits, then sees the first one's rows. (SQLite writes one at a time.)
 */
export async function holdsDivisionDataLocked(db: Kysely<Database>, dialect: Dialect): Promise<boolean> {
  if (dialect === 'postgres') await sql`LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`.execute(db);
  return hasDivisionData(db);
}

/** True when the database already holds users or bookings (a demo must not be mixed into real data). */
export async function hasDivisionData(db: Kysely<Database>): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  const booking = await db.selectFrom('bookings').select('id').limit(1).executeTakeFirst();
  return user !== undefined || booking !== undefined;
}
