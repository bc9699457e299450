// Create bodies that can never collide: request n books position n mod P in its own 30-minute
// slot, far past the demo's bookings (which lie within the next few weeks).
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LENGTH = 30 * MINUTE;
const FIRST_DAY_OFFSET = 60;

const pad = (n: number): string => String(n).padStart(2, '0');
const dmy = (d: Date): string => `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
const hm = (d: Date): string => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

export interface SlotSequence {
  /** Where the benchmark's bookings begin (epoch ms): everything from here on is ours. */
  readonly first: number;
  /** Bodies handed out so far. */
  readonly issued: number;
  /** The JSON body of the next create. */
  next(): string;
}

export function slotSequence({
  now,
  callsigns,
  userIds,
}: {
  now: number;
  callsigns: readonly string[];
  userIds: readonly number[];
}): SlotSequence {
  const first = Math.floor(now / DAY) * DAY + FIRST_DAY_OFFSET * DAY;
  let n = 0;
  return {
    first,
    get issued() {
      return n;
    },
    next() {
      const i = n++;
      const start = new Date(first + Math.floor(i / callsigns.length) * LENGTH);
      const end = new Date(start.getTime() + LENGTH);
      // 23:30–00:00 is written as end < start, which the contract reads as "ends the next day".
      return JSON.stringify({
        cid: userIds[i % userIds.length],
        date: dmy(start),
        start_at: hm(start),
        end_at: hm(end),
        position: callsigns[i % callsigns.length],
      });
    },
  };
}
