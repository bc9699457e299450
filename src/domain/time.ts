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

/** Parses an ISO 8601 instant ("2025-01-01T00:00:00Z", offsets allowed) or returns null. */
export function parseIsoInstant(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(text)) return null;
  const ms = Date.parse(text.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(ms) ? null : ms;
}

/** Parses `Y-m-d H:i:s` (UTC) or returns null. */
export function parseYmdHis(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return ms;
}
