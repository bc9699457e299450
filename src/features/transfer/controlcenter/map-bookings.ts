// Control Center's bookings in Sector's import format (contract §19): all rows, deleted ones as
// deleted. A first pass over a few columns of every booking, a page at a time, finds what is skipped
// and which live bookings overlap, keeping a few numbers per booking; the whole rows are then mapped
// a page at a time (a division has many).
import { flag, instant, type KindReport, num, zeroDates } from './values.js';
import type { Row } from './read.js';

/** Maps pages of whole booking rows, knowing from the first pass which to skip or mark deleted. */
export type BookingMapper = (rows: Row[]) => Array<Record<string, unknown>>;

/** The first pass (`add` each page of the few columns, then `finish`), then the mapping of whole rows. */
export interface BookingPlanner {
  add(rows: Row[]): void;
  finish(): void;
  map: BookingMapper;
}

interface LiveBooking {
  id: number;
  callsign: string;
  /** Milliseconds: start, end, creation. */
  start: number;
  end: number;
  created: number;
}

const ms = (v: unknown): number => Date.parse(`${String(v).replace(' ', 'T')}Z`);

export function planBookings(r: KindReport, userIds: Set<number>, callsignOf: Map<number, string>): BookingPlanner {
  const skipped = new Set<number>();
  const overlapping = new Set<number>();
  let live: LiveBooking[] = [];
  const add = (bookings: Row[]) => {
    r.read += bookings.length;
    for (const b of bookings) {
      const id = num(b.id);
      const callsign = callsignOf.get(num(b.position_id));
      let reason: string | null;
      if (b.user_id == null || !userIds.has(num(b.user_id))) reason = `user ${String(b.user_id)} is not imported`;
      else if (callsign === undefined) reason = `position ${String(b.position_id)} does not exist`;
      else reason = zeroDates(r, `booking ${id}`, b, ['time_start', 'time_end'], ['created_at']);
      if (reason === null && String(b.time_end) <= String(b.time_start)) reason = 'ends before it starts';
      if (reason !== null) {
        r.skipped.push({ row: `booking ${id}`, reason });
        skipped.add(id);
      } else if (!flag(b.deleted)) {
        const start = ms(b.time_start);
        const created = instant(b.created_at);
        live.push({ id, callsign: callsign!, start, end: ms(b.time_end), created: created === null ? start : Date.parse(created) });
      }
    }
  };
  const finish = () => {
    r.imported = r.read - skipped.size;
    // No overlap constraint in Control Center: of overlapping live bookings of one position the
    // later-created one is imported as deleted. Per position, so no booking is compared with all.
    live.sort((a, b) => a.created - b.created || a.id - b.id);
    const keptOf = new Map<string, LiveBooking[]>();
    for (const b of live) {
      let kept = keptOf.get(b.callsign);
      if (kept === undefined) keptOf.set(b.callsign, (kept = []));
      const clash = kept.find((k) => k.start < b.end && b.start < k.end);
      if (clash) {
        overlapping.add(b.id);
        r.changed.push({
          row: `booking ${b.id} ${b.callsign}`,
          reason: `overlaps booking ${clash.id}, created earlier: imported as deleted`,
        });
      } else kept.push(b);
    }
    live = [];
  };
  const map: BookingMapper = (rows) =>
    rows
      .filter((b) => !skipped.has(num(b.id)))
      .map((b) => {
        const createdAt = instant(b.created_at) ?? instant(b.time_start);
        return {
          id: num(b.id),
          user_id: num(b.user_id),
          callsign: callsignOf.get(num(b.position_id)),
          time_start: String(b.time_start),
          time_end: String(b.time_end),
          source: String(b.source),
          deleted: flag(b.deleted) || overlapping.has(num(b.id)),
          network_booking: b.vatsim_booking == null ? null : String(b.vatsim_booking),
          training: flag(b.training),
          exam: flag(b.exam),
          event: flag(b.event),
          created_at: createdAt,
          updated_at: instant(b.updated_at) ?? createdAt,
        };
      });
  return { add, finish, map };
}
