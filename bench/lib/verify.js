// After the create load: read the database directly (not through Sector) and check that no two
// live bookings of one position overlap, and that every 2xx answer left exactly one booking.
import Database from 'better-sqlite3';

export function checkBookings(databaseFile, { from }) {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT id, position_id, time_start, time_end FROM bookings WHERE deleted = 0 ORDER BY position_id, time_start, id')
      .all();
    const overlaps = [];
    let previous = null;
    for (const row of rows) {
      // Sorted by start within a position: an overlap exists iff a start lies before the latest end so far.
      if (previous && previous.position_id === row.position_id && row.time_start < previous.maxEnd) {
        overlaps.push([previous.id, row.id]);
      }
      if (!previous || previous.position_id !== row.position_id) previous = { position_id: row.position_id, id: row.id, maxEnd: row.time_end };
      else if (row.time_end > previous.maxEnd) previous = { position_id: row.position_id, id: row.id, maxEnd: row.time_end };
    }
    const created = db.prepare('SELECT count(*) AS n FROM bookings WHERE deleted = 0 AND time_start >= ?').get(from).n;
    return { liveBookings: rows.length, overlaps, created };
  } finally {
    db.close();
  }
}
