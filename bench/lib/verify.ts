// After the create load: read the database directly (not through Sector) and check that no two
// live bookings of one position overlap, and that every 2xx response left exactly one booking.
import Database from 'better-sqlite3';
import type { Booking } from '../../src/core/db/schema.js';

type BookingRow = Pick<Booking, 'id' | 'position_id' | 'time_start' | 'time_end'>;

export interface BookingsCheck {
  liveBookings: number;
  /** Pairs of ids of overlapping live bookings of one position. */
  overlaps: Array<[number, number]>;
  /** Live bookings from `from` on. */
  created: number;
}

export function checkBookings(databaseFile: string, { from }: { from: number }): BookingsCheck {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[], BookingRow>(
        'SELECT id, position_id, time_start, time_end FROM bookings WHERE deleted = 0 ORDER BY position_id, time_start, id',
      )
      .all();
    const overlaps: Array<[number, number]> = [];
    let previous: { position_id: number; id: number; maxEnd: number } | null = null;
    for (const row of rows) {
      // Sorted by start within a position: an overlap exists iff a start lies before the latest end so far.
      if (previous && previous.position_id === row.position_id && row.time_start < previous.maxEnd) {
        overlaps.push([previous.id, row.id]);
      }
      if (!previous || previous.position_id !== row.position_id)
        previous = { position_id: row.position_id, id: row.id, maxEnd: row.time_end };
      else if (row.time_end > previous.maxEnd) previous = { position_id: row.position_id, id: row.id, maxEnd: row.time_end };
    }
    const counted = db
      .prepare<[number], { n: number }>('SELECT count(*) AS n FROM bookings WHERE deleted = 0 AND time_start >= ?')
      .get(from);
    return { liveBookings: rows.length, overlaps, created: counted?.n ?? 0 };
  } finally {
    db.close();
  }
}
