import { isoMicros } from '../domain/time.js';

const DAY_MS = 86_400_000;
// Years 0000-9999: the range where toISOString has the plain YYYY form.
const MIN_FAST_MS = -62_167_219_200_000;
const MAX_FAST_MS = 253_402_300_800_000;

/**
 * isoMicros for many timestamps: each calendar day and each time of day is formatted once, so
 * a timestamp costs two lookups and one concatenation. Same output as isoMicros. A list of ten
 * thousand users carries tens of thousands of timestamps on a few thousand days and (as people
 * pick whole minutes) few distinct times of day; a string built from two flat halves also
 * serialises faster than one pieced together from many fragments.
 */
export function timestampFormatter(): (ms: number) => string {
  const days = new Map<number, string>();
  const times = new Map<number, string>();
  return (ms) => {
    if (!Number.isInteger(ms) || ms < MIN_FAST_MS || ms >= MAX_FAST_MS) return isoMicros(ms);
    const day = Math.floor(ms / DAY_MS);
    let date = days.get(day);
    if (date === undefined) days.set(day, (date = isoMicros(day * DAY_MS).slice(0, 11)));
    const ofDay = ms - day * DAY_MS;
    let time = times.get(ofDay);
    if (time === undefined) times.set(ofDay, (time = isoMicros(ofDay).slice(11)));
    return date + time;
  };
}
