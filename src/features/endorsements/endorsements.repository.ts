// Endorsements as staff manage them (contract §17): each with its areas and positions by name.
import { sql } from 'kysely';
import type { Dialect, Executor } from '../../core/db/connection.js';
import type { EndorsementRow, EndorsementType } from '../../core/db/schema.js';
import { SOLO_TRAINING_MIN_STATUS } from './domain.js';
import { chunks } from '../../core/db/chunks.js';
import { activeEndorsement } from './predicates.js';

/** An endorsement with the names of its areas and positions (each in byte order). */
export interface EndorsementRecord extends EndorsementRow {
  areas: string[];
  positions: string[];
}

export interface EndorsementFilter {
  ids?: readonly number[];
  user_id?: number;
  type?: EndorsementType;
  /** Active at `now` (true), or not (false); omitted: both. */
  active?: boolean;
  /** Only endorsements linked to one of these areas, or to a position of one of them. */
  areaIds?: readonly number[];
  now: number;
  newestFirst?: boolean;
  limit?: number;
}

export type NewEndorsement = Pick<EndorsementRow, 'user_id' | 'type' | 'rating' | 'valid_from' | 'valid_to' | 'issued_by' | 'created_at'>;

export function endorsementsRepository(db: Executor, dialect: Dialect) {
  /** The rows with their links: two set-based queries for any number of rows. */
  async function withLinks(rows: EndorsementRow[]): Promise<EndorsementRecord[]> {
    const areas: Array<{ endorsement_id: number; name: string }> = [];
    const positions: Array<{ endorsement_id: number; name: string }> = [];
    // In parts: a whole division's endorsements would pass the databases' limit of bound parameters.
    for (const part of chunks(
      rows.map((r) => r.id),
      5000,
    )) {
      areas.push(
        ...(await db
          .selectFrom('endorsement_areas as l')
          .innerJoin('areas', 'areas.id', 'l.area_id')
          .select(['l.endorsement_id', 'areas.name'])
          .where('l.endorsement_id', 'in', part)
          .execute()),
      );
      positions.push(
        ...(await db
          .selectFrom('endorsement_positions as l')
          .innerJoin('positions', 'positions.id', 'l.position_id')
          .select(['l.endorsement_id', 'positions.callsign as name'])
          .where('l.endorsement_id', 'in', part)
          .execute()),
      );
    }
    const grouped = (links: Array<{ endorsement_id: number; name: string }>) => {
      const out = new Map<number, string[]>();
      for (const l of links) out.set(l.endorsement_id, [...(out.get(l.endorsement_id) ?? []), l.name]);
      for (const names of out.values()) names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return out;
    };
    const [areasOf, positionsOf] = [grouped(areas), grouped(positions)];
    return rows.map((r) => ({ ...r, areas: areasOf.get(r.id) ?? [], positions: positionsOf.get(r.id) ?? [] }));
  }

  return {
    async list(f: EndorsementFilter): Promise<EndorsementRecord[]> {
      const rows = await db
        .selectFrom('endorsements as e')
        .selectAll('e')
        .$if(f.ids !== undefined, (q) => q.where('e.id', 'in', [...f.ids!, -1]))
        .$if(f.user_id !== undefined, (q) => q.where('e.user_id', '=', f.user_id!))
        .$if(f.type !== undefined, (q) => q.where('e.type', '=', f.type!))
        .$if(f.active !== undefined, (q) =>
          q.where(f.active ? activeEndorsement(f.now, 'e') : sql<boolean>`not ${activeEndorsement(f.now, 'e')}`),
        )
        .$if(f.areaIds !== undefined, (q) =>
          q.where((eb) =>
            eb.or([
              eb.exists(
                eb
                  .selectFrom('endorsement_areas as a')
                  .select('a.area_id')
                  .whereRef('a.endorsement_id', '=', 'e.id')
                  .where('a.area_id', 'in', [...f.areaIds!, -1]),
              ),
              eb.exists(
                eb
                  .selectFrom('endorsement_positions as p')
                  .innerJoin('positions', 'positions.id', 'p.position_id')
                  .select('p.position_id')
                  .whereRef('p.endorsement_id', '=', 'e.id')
                  .where('positions.area_id', 'in', [...f.areaIds!, -1]),
              ),
            ]),
          ),
        )
        .$if(f.newestFirst === true, (q) => q.orderBy('e.created_at', 'desc').orderBy('e.id', 'desc'))
        .$if(f.newestFirst !== true, (q) => q.orderBy('e.id'))
        .$if(f.limit !== undefined, (q) => q.limit(f.limit!))
        .execute();
      return withLinks(rows);
    },

    async find(id: number): Promise<EndorsementRecord | undefined> {
      const row = await db.selectFrom('endorsements').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? (await withLinks([row]))[0] : undefined;
    },

    /**
     * The areas an endorsement belongs to, whose staff manage it: its own areas (visiting,
     * examiner), its positions' (solo, s1), or those of the positions requiring its facility.
     */
    async scopeOf(id: number): Promise<number[]> {
      const e = await db.selectFrom('endorsements').select(['type', 'rating']).where('id', '=', id).executeTakeFirstOrThrow();
      const rows =
        e.type === 'facility'
          ? await db
              .selectFrom('positions')
              .select('area_id')
              .distinct()
              .where('required_facility', '=', e.rating ?? '')
              .where('area_id', 'is not', null)
              .execute()
          : [
              ...(await db.selectFrom('endorsement_areas').select('area_id').where('endorsement_id', '=', id).execute()),
              ...(await db
                .selectFrom('endorsement_positions as l')
                .innerJoin('positions', 'positions.id', 'l.position_id')
                .select('positions.area_id')
                .where('l.endorsement_id', '=', id)
                .where('positions.area_id', 'is not', null)
                .execute()),
            ];
      return [...new Set(rows.map((r) => r.area_id!))];
    },

    /**
     * Whether the user exists; on PostgreSQL, holds the user's row to the end of the transaction so
     * two issues for one user queue and the second sees the first (SQLite writes one at a time).
     */
    async lockUser(userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where('id', '=', userId)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The user's endorsements of this type that are current or still to come (not revoked, not ended). */
    async unended(userId: number, type: EndorsementType, now: number): Promise<EndorsementRow[]> {
      return db
        .selectFrom('endorsements')
        .selectAll()
        .where('user_id', '=', userId)
        .where('type', '=', type)
        .where('revoked', '=', 0)
        .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', now)]))
        .orderBy('id')
        .execute();
    },

    /** The one of this user and type starting at this instant (the import format's key), if any. */
    startingAt(userId: number, type: EndorsementType, validFrom: number) {
      return db
        .selectFrom('endorsements')
        .select('id')
        .where('user_id', '=', userId)
        .where('type', '=', type)
        .where('valid_from', '=', validFrom)
        .executeTakeFirst();
    },

    /** What the issuing rules look up: areas, positions with their area, facility names, the user's trainings. */
    async issueFacts(userId: number) {
      const areas = await db.selectFrom('areas').select(['id', 'name']).execute();
      const positions = await db
        .selectFrom('positions')
        .leftJoin('areas', 'areas.id', 'positions.area_id')
        .select(['positions.id', 'positions.callsign', 'positions.required_facility', 'areas.name as area'])
        .execute();
      const trainings = await db
        .selectFrom('trainings')
        .innerJoin('areas', 'areas.id', 'trainings.area_id')
        .select('areas.name')
        .where('trainings.user_id', '=', userId)
        .where('trainings.status', '>=', SOLO_TRAINING_MIN_STATUS)
        .execute();
      return { areas, positions, trainingAreas: trainings.map((t) => t.name) };
    },

    /** The highest rating of the user's open trainings (pre-training or later) in the area of the position; null: none. */
    async soloTrainingRating(userId: number, callsign: string): Promise<number | null> {
      const row = await db
        .selectFrom('positions as p')
        .innerJoin('trainings as t', 't.area_id', 'p.area_id')
        .innerJoin('training_ratings as r', 'r.training_id', 't.id')
        .select((eb) => eb.fn.max('r.rating').as('rating'))
        .where('p.callsign', '=', callsign)
        .where('t.user_id', '=', userId)
        .where('t.status', '>=', SOLO_TRAINING_MIN_STATUS)
        .executeTakeFirst();
      // MAX over no rows is NULL, which the aggregate's type does not say.
      return (row?.rating as number | null | undefined) ?? null;
    },

    async insert(row: NewEndorsement, areaIds: readonly number[], positionIds: readonly number[]): Promise<number> {
      const { id } = await db
        .insertInto('endorsements')
        .values({ ...row, revoked: 0, revoked_at: null, expiry_published_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (areaIds.length > 0)
        await db
          .insertInto('endorsement_areas')
          .values(areaIds.map((area_id) => ({ endorsement_id: id, area_id })))
          .execute();
      if (positionIds.length > 0)
        await db
          .insertInto('endorsement_positions')
          .values(positionIds.map((position_id) => ({ endorsement_id: id, position_id })))
          .execute();
      return id;
    },

    async setEnd(id: number, validTo: number | null): Promise<void> {
      await db.updateTable('endorsements').set({ valid_to: validTo, expiry_published_at: null }).where('id', '=', id).execute();
    },

    /** Revoked now: it ends now, and its end is not an expiry to publish. */
    async revoke(id: number, at: number): Promise<void> {
      await db
        .updateTable('endorsements')
        .set({ revoked: 1, revoked_at: at, valid_to: at, expiry_published_at: at })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Ended, not revoked, expiry not yet published: oldest end first. Held to the end of the write on
     * PostgreSQL: one whose end a change moved meanwhile is read as it is now, and left out.
     */
    async expired(now: number, limit: number): Promise<EndorsementRow[]> {
      return db
        .selectFrom('endorsements')
        .selectAll()
        .where('expiry_published_at', 'is', null)
        .where('valid_to', 'is not', null)
        .where('revoked', '=', 0)
        .where('valid_to', '<=', now)
        .orderBy('valid_to')
        .orderBy('id')
        .limit(limit)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .execute();
    },

    /** Marks the expiries published; returns the ids this call marked (another instance may have been first). */
    async markExpiryPublished(ids: readonly number[], at: number): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .updateTable('endorsements')
        .set({ expiry_published_at: at })
        .where('id', 'in', ids)
        .where('expiry_published_at', 'is', null)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

export type EndorsementsRepository = ReturnType<typeof endorsementsRepository>;
