// Create bodies that can never collide: request n books position n mod P in its own 30-minute
// slot, far past the demo's bookings (which lie within the next few weeks).
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LENGTH = 30 * MINUTE;
const FIRST_DAY_OFFSET = 60;

const pad = (n) => String(n).padStart(2, '0');
const dmy = (d) => `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
const hm = (d) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

export function slotSequence({ now, callsigns, userIds }) {
  const first = Math.floor(now / DAY) * DAY + FIRST_DAY_OFFSET * DAY;
  let n = 0;
  return {
    /** Where the benchmark's bookings begin (epoch ms): everything from here on is ours. */
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
