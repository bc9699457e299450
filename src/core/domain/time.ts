// Time formats of the API. All instants are UTC, carried as epoch milliseconds.

export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/** ISO 8601 UTC with microseconds: 2024-02-04T15:18:44.000000Z */
export function isoMicros(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2024-02-04T15:18:44.123Z
  return `${iso.slice(0, 23)}000Z`;
}

export function isoMicrosOrNull(ms: number | null): string | null {
  return ms === null ? null : isoMicros(ms);
}

/** `Y-m-d H:i:s` in UTC, as booking times are shown. */
export function ymdHis(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

const ISO_INSTANT_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/;

/** An ISO 8601 instant (offsets allowed) or null; every field must exist as written (Date.parse would roll 30 Feb over). */
export function parseIsoInstant(text: string): number | null {
  const m = ISO_INSTANT_RE.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
  const s = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0').slice(0, 3));
  const local = utcFromFields(y, mo, d, h, mi, s);
  const offset = offsetMinutes(m[8], m[9], m[10]);
  if (local === null || offset === null) return null;
  return local + ms - offset * 60_000;
}

/** Epoch ms of a UTC wall-clock time, or null when out of range: no roll-over, and years 0–99 stay themselves. */
export function utcFromFields(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | null {
  if (h > 23 || mi > 59 || s > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return date.getTime() + ((h * 60 + mi) * 60 + s) * 1000;
}

/** A UTC offset in minutes east of Greenwich (0 for Z), or null when its hours or minutes are impossible. */
function offsetMinutes(sign: string | undefined, hours: string | undefined, minutes: string | undefined): number | null {
  if (sign === undefined) return 0;
  const [oh, om] = [Number(hours), Number(minutes)];
  if (oh > 23 || om > 59) return null;
  return (sign === '-' ? -1 : 1) * (oh * 60 + om);
}

/** Parses `Y-m-d H:i:s` (UTC) or returns null. */
export function parseYmdHis(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return utcFromFields(y, mo, d, h, mi, s);
}
