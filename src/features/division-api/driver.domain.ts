// The one small interface a division's hub is reached through (contract §22): the requests Sector
// owes it are stored as operations, and a driver (one file per hub: vateud.ts) turns each into
// the hub's HTTP requests. Another region's or division's hub is another file.

/** What Sector owes the hub, as stored in division_requests.operation. */
export type DivisionOperation =
  | { op: 'assign_mentor' | 'remove_mentor' | 'assign_examiner' | 'remove_examiner'; cid: number; actingCid: number }
  | { op: 'tier_add'; tier: 1 | 2; cid: number; position: string; instructorCid: number }
  | { op: 'tier_remove'; tier: 1 | 2; cid: number; position: string }
  | { op: 'solo_add'; cid: number; position: string; instructorCid: number; expireAt: string }
  | { op: 'solo_remove'; cid: number; position: string }
  | { op: 'upgrade'; cid: number; rating: number; instructorCid: number }
  | { op: 'theory_exam'; cid: number; rating: number; instructorCid: number }
  /** An examination's result with its file (read when sent: HubFile). */
  | { op: 'cpt'; cid: number; examinationId: number; examinerCid: number; position: string; pass: boolean };

/** A file sent to the hub: its stored name, type and bytes. */
export interface HubFile {
  name: string;
  type: string;
  content: Buffer;
}

/** One attempt's result: sent; refused by the hub (kept with its message); or to be tried again. */
export type DeliveryOutcome =
  | { result: 'sent' }
  | { result: 'refused'; message: string }
  /** `unknown`: the hub may have acted (no answer), so a create is matched against its list first. */
  | { result: 'retry'; error: string; unknown: boolean };

export interface DivisionDriver {
  /** The first request of an operation, for `division:status`. */
  describe(op: DivisionOperation): { method: string; path: string };
  /** Sends an operation; `unknown`: the last attempt had no answer, so match before creating again. */
  send(op: DivisionOperation, o: { unknown: boolean; signal: AbortSignal; file?: HubFile | undefined }): Promise<DeliveryOutcome>;
}

/** The back-off of attempt n (1-based): the base doubling, capped at one hour. */
export function retryDelayMs(baseMs: number, attempts: number): number {
  return Math.min(3_600_000, baseMs * 2 ** Math.min(attempts - 1, 30));
}

/** The hub's time format for a solo's end (UTC). */
export function hubTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** `{"data": …}`, or the answer itself when it comes bare (the hub answers both ways). */
export function hubData(body: unknown): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'data' in body ? body.data : body;
}

/** The objects of a list answer, `{"data": [...]}` or bare; null when it is not a list. */
export function hubRows(body: unknown): Array<Record<string, unknown>> | null {
  const data = hubData(body);
  return Array.isArray(data)
    ? (data.filter((x) => typeof x === 'object' && x !== null && !Array.isArray(x)) as Array<Record<string, unknown>>)
    : null;
}
