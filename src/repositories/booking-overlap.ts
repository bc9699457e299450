/**
 * True when err is the database refusing two live bookings that overlap on one position: the
 * PostgreSQL exclusion constraint (23P01) or the SQLite triggers, which name the same guard
 * (src/db/migrations/0001_initial.ts).
 */
export function isBookingOverlap(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string } | null | undefined;
  return e?.code === '23P01' || (typeof e?.message === 'string' && e.message.includes('bookings_no_overlap'));
}
