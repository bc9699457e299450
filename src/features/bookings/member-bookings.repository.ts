// What members' own pages read: the facts who-may-book decides on, the positions to offer, a
// member's upcoming bookings, and their calendar feed address.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { BOOKING_TRAINING_MIN_STATUS, STAFF_ROLES } from './domain/who-may-book.js';
import type { CalendarBooking } from '../calendar/calendar.repository.js';
import { activeEndorsement } from '../../core/db/predicates.js';

export interface BookerFacts {
  user: {
    id: number;
    first_name: string | null;
    last_name: string | null;
    rating: number;
    division: string | null;
    subdivision: string | null;
  };
  activeAreas: number[];
  visitingAreas: number[];
  /** Open trainings (status >= 1) per area, with the highest rating they are for (null: none given). */
  trainings: Array<{ area_id: number; rating: number | null }>;
  staffAreas: number[];
}

export interface OfferedPosition {
  id: number;
  callsign: string;
  name: string;
  frequency: string;
  area_id: number | null;
  area: string | null;
  rating: number;
}

/** A member's booking as their pages show it: the calendar's fields and the stored tag choice. */
export interface MemberBooking extends CalendarBooking {
  user_id: number;
  position_id: number;
  area_id: number | null;
  training_forced: number;
}

const ids = (rows: Array<{ area_id: number }>): number[] => rows.map((r) => r.area_id);

export function memberBookingsRepository(db: Kysely<Database>) {
  const view = () =>
    db
      .selectFrom('bookings as b')
      .innerJoin('positions as p', 'p.id', 'b.position_id')
      .leftJoin('areas as a', 'a.id', 'p.area_id')
      .select(['b.id', 'b.user_id', 'b.position_id', 'p.area_id', 'p.callsign', 'p.name as position_name', 'p.frequency', 'a.name as area'])
      .select(['b.time_start', 'b.time_end', 'b.training', 'b.training_forced', 'b.exam', 'b.event', 'b.deleted'])
      .select(['b.created_at', 'b.updated_at', 'b.revision']);

  return {
    /** The user and the facts about them who-may-book needs: five small reads, none per row. */
    async booker(cid: number, now: number): Promise<BookerFacts | undefined> {
      const user = await db
        .selectFrom('users')
        .select(['id', 'first_name', 'last_name', 'rating', 'division', 'subdivision'])
        .where('id', '=', cid)
        .executeTakeFirst();
      if (!user) return undefined;
      const active = await db
        .selectFrom('user_area_activity')
        .select('area_id')
        .where('user_id', '=', cid)
        .where('active', '=', 1)
        .execute();
      const visiting = await db
        .selectFrom('endorsements')
        .innerJoin('endorsement_areas as ea', 'ea.endorsement_id', 'endorsements.id')
        .select('ea.area_id')
        .where('endorsements.user_id', '=', cid)
        .where('endorsements.type', '=', 'visiting')
        .where(activeEndorsement(now))
        .execute();
      const trainings = await db
        .selectFrom('trainings as t')
        .leftJoin('training_ratings as r', 'r.training_id', 't.id')
        .select((eb) => ['t.area_id', eb.fn.max<number | null>('r.rating').as('rating')])
        .where('t.user_id', '=', cid)
        .where('t.status', '>=', BOOKING_TRAINING_MIN_STATUS)
        .groupBy('t.area_id')
        .execute();
      // A division-wide Administrator (no area) is staff of every area.
      const staff = await db
        .selectFrom('areas')
        .select('areas.id as area_id')
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('roles')
              .select('roles.id')
              .where('roles.user_id', '=', cid)
              .where('roles.role', 'in', STAFF_ROLES)
              .where((r) => r.or([r('roles.area_id', '=', r.ref('areas.id')), r('roles.area_id', 'is', null)])),
          ),
        )
        .execute();
      return {
        user,
        activeAreas: ids(active),
        visitingAreas: ids(visiting),
        trainings: trainings.map((t) => ({ area_id: t.area_id, rating: t.rating })),
        staffAreas: ids(staff),
      };
    },

    /** Every position, by callsign, with its area's name. */
    positions(): Promise<OfferedPosition[]> {
      return db
        .selectFrom('positions as p')
        .leftJoin('areas as a', 'a.id', 'p.area_id')
        .select(['p.id', 'p.callsign', 'p.name', 'p.frequency', 'p.area_id', 'a.name as area', 'p.rating'])
        .orderBy('p.callsign')
        .execute();
    },

    /** The member's live bookings ending after `from` (or every one of them in the window given), in time order. */
    bookings(cid: number, window: { from: number; to: number; cancelledSince: number | null }): Promise<MemberBooking[]> {
      const since = window.cancelledSince;
      return view()
        .where('b.user_id', '=', cid)
        .where('b.time_end', '>', window.from)
        .where('b.time_start', '<', window.to)
        .where((eb) => (since === null ? eb('b.deleted', '=', 0) : eb.or([eb('b.deleted', '=', 0), eb('b.updated_at', '>=', since)])))
        .orderBy('b.time_start')
        .orderBy('b.id')
        .execute();
    },

    /** One booking as the edit form shows it, deleted ones included. */
    booking(id: number): Promise<MemberBooking | undefined> {
      return view().where('b.id', '=', id).executeTakeFirst();
    },

    /** Bookings by id (the few a 409 names), in time order. */
    byIds(ids: readonly number[]): Promise<MemberBooking[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return view()
        .where('b.id', 'in', [...ids])
        .orderBy('b.time_start')
        .orderBy('b.id')
        .execute();
    },

    async calendarSecret(cid: number): Promise<string | null> {
      const row = await db.selectFrom('member_calendars').select('secret').where('user_id', '=', cid).executeTakeFirst();
      return row?.secret ?? null;
    },

    /** Sets the member's feed secret, replacing (and so ending) any earlier one. */
    async setCalendarSecret(cid: number, secret: string, now: number): Promise<void> {
      await db
        .insertInto('member_calendars')
        .values({ user_id: cid, secret, created_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret, created_at: now }))
        .execute();
    },

    /** Whose feed a secret opens, if anyone's. */
    async calendarOwner(secret: string): Promise<number | null> {
      const row = await db.selectFrom('member_calendars').select('user_id').where('secret', '=', secret).executeTakeFirst();
      return row?.user_id ?? null;
    },
  };
}

export type MemberBookingsRepository = ReturnType<typeof memberBookingsRepository>;
