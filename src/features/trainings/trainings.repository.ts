// Trainings (contract §18): each with its area's name, the ratings and facilities it is for, and
// its mentors. Lists load those with one query per relation for any number of trainings.
import { type Selectable, sql, type Updateable } from 'kysely';
import type { Dialect, Executor } from '../../core/db/connection.js';
import type { TrainingsTable } from '../../core/db/schema.js';
import { ratingCode } from '../members/domain/ratings.js';
import { STATUS } from './domain.js';
import { chunks } from '../../core/db/chunks.js';
import { activeEndorsement } from '../endorsements/index.js';

export interface TrainingRecord extends Selectable<TrainingsTable> {
  area: string;
  /** Rating codes, then facility names. */
  ratings: string[];
  mentors: number[];
}

export interface TrainingFilter {
  ids?: readonly number[];
  areaIds?: readonly number[];
  statuses?: readonly number[];
  user_id?: number;
  /** Oldest first (the queue), else by id. */
  byCreation?: boolean;
}

export type NewTraining = Pick<
  Selectable<TrainingsTable>,
  'user_id' | 'area_id' | 'type' | 'status' | 'created_at' | 'started_at' | 'motivation' | 'experience' | 'english_only'
>;

export function trainingsRepository(db: Executor, dialect: Dialect) {
  async function withRelations(rows: Array<Selectable<TrainingsTable>>): Promise<TrainingRecord[]> {
    const areas = new Map((await db.selectFrom('areas').select(['id', 'name']).execute()).map((a) => [a.id, a.name]));
    const ratings = new Map<number, string[]>();
    const facilities = new Map<number, string[]>();
    const mentors = new Map<number, number[]>();
    const push = <T>(m: Map<number, T[]>, k: number, v: T) => m.set(k, [...(m.get(k) ?? []), v]);
    for (const part of chunks(
      rows.map((r) => r.id),
      5000,
    )) {
      const r = await db
        .selectFrom('training_ratings')
        .select(['training_id', 'rating'])
        .where('training_id', 'in', part)
        .orderBy('rating')
        .execute();
      for (const x of r) push(ratings, x.training_id, ratingCode(x.rating));
      const f = await db
        .selectFrom('training_facilities')
        .select(['training_id', 'name'])
        .where('training_id', 'in', part)
        .orderBy('name')
        .execute();
      for (const x of f) push(facilities, x.training_id, x.name);
      const m = await db
        .selectFrom('training_mentors')
        .select(['training_id', 'user_id'])
        .where('training_id', 'in', part)
        .orderBy('user_id')
        .execute();
      for (const x of m) push(mentors, x.training_id, x.user_id);
    }
    return rows.map((t) => ({
      ...t,
      area: areas.get(t.area_id) ?? String(t.area_id),
      ratings: [...(ratings.get(t.id) ?? []), ...(facilities.get(t.id) ?? [])],
      mentors: mentors.get(t.id) ?? [],
    }));
  }

  return {
    async list(f: TrainingFilter): Promise<TrainingRecord[]> {
      const rows = await db
        .selectFrom('trainings')
        .selectAll()
        .$if(f.ids !== undefined, (q) => q.where('id', 'in', [...f.ids!, -1]))
        .$if(f.areaIds !== undefined, (q) => q.where('area_id', 'in', [...f.areaIds!, -1]))
        .$if(f.statuses !== undefined, (q) => q.where('status', 'in', [...f.statuses!, -99]))
        .$if(f.user_id !== undefined, (q) => q.where('user_id', '=', f.user_id!))
        .$if(f.byCreation === true, (q) => q.orderBy('created_at').orderBy('id'))
        .$if(f.byCreation !== true, (q) => q.orderBy('id'))
        .execute();
      return withRelations(rows);
    },

    async find(id: number): Promise<TrainingRecord | undefined> {
      const row = await db.selectFrom('trainings').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? (await withRelations([row]))[0] : undefined;
    },

    /** PostgreSQL: holds the training's row to the end of the transaction (SQLite writes one at a time). */
    /** The member's open trainings (ids), held to the end of the transaction on PostgreSQL. */
    async lockOpenOf(cid: number): Promise<number[]> {
      const rows = await db
        .selectFrom('trainings')
        .select('id')
        .where('user_id', '=', cid)
        .where('status', '>=', STATUS.IN_QUEUE)
        .orderBy('id')
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .execute();
      return rows.map((r) => r.id);
    },

    async lock(id: number): Promise<void> {
      if (dialect === 'postgres') await db.selectFrom('trainings').select('id').where('id', '=', id).forUpdate().execute();
    },

    /** Adds the training; null when the user has one in the area created at the same instant (the natural key). */
    async insert(row: NewTraining, ratings: readonly number[], facilities: readonly string[]): Promise<number | null> {
      const inserted = await db
        .insertInto('trainings')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'area_id', 'created_at']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return null;
      const { id } = inserted;
      if (ratings.length > 0)
        await db
          .insertInto('training_ratings')
          .values(ratings.map((rating) => ({ training_id: id, rating })))
          .execute();
      if (facilities.length > 0)
        await db
          .insertInto('training_facilities')
          .values(facilities.map((name) => ({ training_id: id, name })))
          .execute();
      return id;
    },

    async update(id: number, changes: Updateable<TrainingsTable>): Promise<void> {
      if (Object.keys(changes).length > 0) await db.updateTable('trainings').set(changes).where('id', '=', id).execute();
    },

    async setMentors(id: number, cids: readonly number[]): Promise<void> {
      await db.deleteFrom('training_mentors').where('training_id', '=', id).execute();
      if (cids.length > 0)
        await db
          .insertInto('training_mentors')
          .values(cids.map((user_id) => ({ training_id: id, user_id })))
          .execute();
    },

    /** Of these users, those holding Mentor or a higher role in the area (or Administrator division-wide). */
    async mentorsAmong(areaId: number, cids: readonly number[]): Promise<number[]> {
      if (cids.length === 0) return [];
      const rows = await db
        .selectFrom('roles')
        .select('user_id')
        .distinct()
        .where('user_id', 'in', cids)
        .where((eb) =>
          eb.or([
            eb.and([eb('area_id', '=', areaId), eb('role', 'in', ['Mentor', 'Moderator', 'Administrator'])]),
            eb.and([eb('area_id', 'is', null), eb('role', '=', 'Administrator')]),
          ]),
        )
        .execute();
      return rows.map((r) => r.user_id);
    },

    /** Whether the user holds an active examiner endorsement for the area. */
    async isExaminer(cid: number, areaId: number, now: number): Promise<boolean> {
      const row = await db
        .selectFrom('endorsements')
        .innerJoin('endorsement_areas', 'endorsement_areas.endorsement_id', 'endorsements.id')
        .select('endorsements.id')
        .where('endorsements.user_id', '=', cid)
        .where('endorsements.type', '=', 'examiner')
        .where('endorsement_areas.area_id', '=', areaId)
        .where(activeEndorsement(now))
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The waits of trainings of the area that left the queue since `since` (estimates). */
    async pastWaits(areaId: number, since: number): Promise<TrainingRecord[]> {
      const rows = await db
        .selectFrom('trainings')
        .selectAll()
        .where('area_id', '=', areaId)
        .where('queue_wait_ms', 'is not', null)
        .where('started_at', '>=', since)
        .execute();
      return withRelations(rows);
    },

    /**
     * Open trainings in status 0 or 1 whose student is due to be asked to confirm interest (no request
     * open). Held to the end of the write on PostgreSQL: one confirmed or closed meanwhile is read as
     * it is now, and left out.
     */
    interestDue(cutoff: number) {
      return db
        .selectFrom('trainings')
        .selectAll()
        .where('status', 'in', [STATUS.IN_QUEUE, STATUS.PRE_TRAINING])
        .where('interest_deadline', 'is', null)
        .where((eb) => eb(eb.fn.coalesce('interest_confirmed_at', 'created_at'), '<=', cutoff))
        .orderBy('id')
        .limit(500)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .execute();
    },

    /** Open requests to confirm interest whose deadline has passed (held, as interestDue's). */
    interestExpired(now: number) {
      return db
        .selectFrom('trainings')
        .selectAll()
        .where('status', 'in', [STATUS.IN_QUEUE, STATUS.PRE_TRAINING])
        .where('interest_deadline', '<=', now)
        .orderBy('id')
        .limit(500)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .execute();
    },

    /** What a member may apply for is made of: their rating, the facility endorsements they hold, their open training. */
    async applicant(cid: number, now: number) {
      const user = await db.selectFrom('users').select(['id', 'rating']).where('id', '=', cid).executeTakeFirst();
      const held = await db
        .selectFrom('endorsements')
        .select('endorsements.rating')
        .where('endorsements.user_id', '=', cid)
        .where('endorsements.type', '=', 'facility')
        .where(activeEndorsement(now))
        .execute();
      const open = await db
        .selectFrom('trainings')
        .select('id')
        .where('user_id', '=', cid)
        .where('status', '>=', STATUS.IN_QUEUE)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return { rating: user?.rating ?? null, held: held.flatMap((e) => (e.rating ? [e.rating] : [])), openId: open?.id ?? null };
    },

    /** Positions with their area's id: what each area's trainings may be for. */
    positionsByArea() {
      return db.selectFrom('positions').select(['area_id', 'rating', 'required_facility']).execute();
    },

    /** The member's latest training (open, else the last closed), its id. */
    async latestOf(cid: number): Promise<number | null> {
      const row = await db
        .selectFrom('trainings')
        .select('id')
        .where('user_id', '=', cid)
        .orderBy(sql`case when status >= 0 then 1 else 0 end`, 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row?.id ?? null;
    },

    /** Asks the students of these trainings to confirm interest by `deadline`. */
    async requestInterest(ids: readonly number[], deadline: number): Promise<void> {
      if (ids.length > 0) await db.updateTable('trainings').set({ interest_deadline: deadline }).where('id', 'in', ids).execute();
    },

    /** Closes these trainings as Sector (-4) with the reason, pauses ended: one statement for all. */
    async closeBySystem(ids: readonly number[], at: number, reason: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('trainings')
        .set({
          status: STATUS.CLOSED_BY_SYSTEM,
          closed_at: at,
          closed_reason: reason,
          interest_deadline: null,
          paused_ms: sql<number>`paused_ms + case when paused_at is null then 0 else ${at} - paused_at end`,
          paused_at: null,
        })
        .where('id', 'in', ids)
        .where('status', '>=', STATUS.IN_QUEUE)
        .execute();
    },

    /** Who trainings' mail goes to (a null address: none is sent). */
    students(userIds: readonly number[]) {
      return db
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'rating'])
        .where('id', 'in', [...userIds, -1])
        .execute();
    },

    /** Starts the activity grace of §16 for the user in the area (a completed training). */
    async startGrace(userId: number, areaId: number, at: number): Promise<void> {
      await db
        .insertInto('user_area_activity')
        .values({ user_id: userId, area_id: areaId, active: 1, granted_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'area_id']).doUpdateSet({ active: 1, granted_at: at }))
        .execute();
    },
  };
}

export type TrainingsRepository = ReturnType<typeof trainingsRepository>;
