import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import type { Window } from './domain.js';

/** A booking as calendars and the schedule page show it: the public (reduced) fields and its position's. */
export interface CalendarBooking {
  id: number;
  callsign: string;
  position_name: string;
  frequency: string;
  area: string | null;
  time_start: number;
  time_end: number;
  training: number;
  exam: number;
  event: number;
  deleted: number;
  created_at: number;
  updated_at: number;
  revision: number;
}

export function calendarRepository(db: Kysely<Database>) {
  return {
    /** Bookings overlapping the window in list order: live ones, and ones deleted since `cancelledSince` when asked. */
    bookings(w: Window): Promise<CalendarBooking[]> {
      const since = w.cancelledSince;
      return db
        .selectFrom('bookings as b')
        .innerJoin('positions as p', 'p.id', 'b.position_id')
        .leftJoin('areas as a', 'a.id', 'p.area_id')
        .select(['b.id', 'p.callsign', 'p.name as position_name', 'p.frequency', 'a.name as area'])
        .select([
          'b.time_start',
          'b.time_end',
          'b.training',
          'b.exam',
          'b.event',
          'b.deleted',
          'b.created_at',
          'b.updated_at',
          'b.revision',
        ])
        .where('b.time_end', '>', w.from)
        .where('b.time_start', '<', w.to)
        .where((eb) => (since === null ? eb('b.deleted', '=', 0) : eb.or([eb('b.deleted', '=', 0), eb('b.updated_at', '>=', since)])))
        .orderBy('b.time_start')
        .orderBy('b.id')
        .execute();
    },

    /** Who booked these bookings (signed-in members see it on the page): CID and name. */
    async bookers(
      bookingIds: readonly number[],
    ): Promise<Array<{ booking_id: number; cid: number; first_name: string | null; last_name: string | null }>> {
      if (bookingIds.length === 0) return [];
      return db
        .selectFrom('bookings as b')
        .innerJoin('users as u', 'u.id', 'b.user_id')
        .select(['b.id as booking_id', 'u.id as cid', 'u.first_name', 'u.last_name'])
        .where('b.id', 'in', bookingIds)
        .execute();
    },

    /** Every area's name, for the page's filter. */
    async areaNames(): Promise<string[]> {
      const rows = await db.selectFrom('areas').select('name').execute();
      return rows.map((r) => r.name).sort((x, y) => x.localeCompare(y, 'en'));
    },
  };
}

export type CalendarRepository = ReturnType<typeof calendarRepository>;
