/** The database could not take the write in time (another process holds it); the request changed nothing. */
export class DatabaseBusyError extends Error {
  /** The database's own code for the last refusal (SQLITE_BUSY, 40P01, …), for the logs. */
  readonly code: string | undefined;
  constructor(cause: unknown) {
    super('the database is busy: another process is writing to it; try again shortly', { cause });
    const code = (cause as { code?: unknown } | null | undefined)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/** SQLITE_BUSY and its extended codes: another connection holds the lock. */
export function isSqliteBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Deadlock (40P01) or serialization failure (40001): PostgreSQL asks for the transaction to be run again. */
export function isPgRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return code === '40P01' || code === '40001';
}

/** busy: another writer holds the lock, retry; unavailable: the database cannot respond now; badText: a character it refuses (NUL). */
export type DatabaseTrouble = 'busy' | 'unavailable' | 'badText';

const PG_UNAVAILABLE = new Set(['57014', '57P01', '57P02', '57P03', '53300', '53400']);
const PG_BAD_TEXT = new Set(['22021', '22P05']);
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

// A client that hung up mid-request: ECONNRESET "aborted" with no syscall (a database socket's error names one).
function isRequestAborted(code: unknown, message: unknown, syscall: unknown): boolean {
  return code === 'ECONNRESET' && message === 'aborted' && syscall === undefined;
}

export function databaseTrouble(err: unknown): DatabaseTrouble | null {
  if (err instanceof DatabaseBusyError || isSqliteBusy(err) || isPgRetryable(err)) return 'busy';
  const { code, message, syscall } = (err ?? {}) as { code?: unknown; message?: unknown; syscall?: unknown };
  if (isRequestAborted(code, message, syscall)) return null;
  if (typeof code === 'string') {
    // SQLITE_LOCKED: a table locked by this connection's own reader; 55P03: lock_not_available.
    if (code.startsWith('SQLITE_LOCKED') || code === '55P03') return 'busy';
    if (PG_UNAVAILABLE.has(code) || code.startsWith('08') || NETWORK.has(code)) return 'unavailable';
    if (PG_BAD_TEXT.has(code)) return 'badText';
  }
  // node-postgres reports a lost connection or a full pool by message only.
  if (typeof message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect)/.test(message)) return 'unavailable';
  return null;
}

/** The database refusing overlapping live bookings on one position: the PostgreSQL exclusion constraint or the SQLite triggers. */
export function isBookingOverlap(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string } | null | undefined;
  return e?.code === '23P01' || (typeof e?.message === 'string' && e.message.includes('bookings_no_overlap'));
}
