// The outbox's rows: events written in the change's transaction, delivered after its commit by
// their consumers (webhooks, the event stream, network pushes). Ids sort by creation time.
import { randomFillSync } from 'node:crypto';
import type { EventRow } from './db/schema.js';

/** An event as written by a Write. */
export type NewEvent = Pick<EventRow, 'id' | 'type' | 'booking_id' | 'body' | 'created_at' | 'network_push'>;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** ULID-like: 10 characters of time, then 16 from the 16 random bytes given; sorts by creation time. */
export function eventId(at: number, random: Uint8Array): string {
  let time = '';
  for (let t = Math.max(0, Math.floor(at)), i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32]! + time;
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD[random[i]! % 32]!;
  return `evt_${time}${tail}`;
}

/**
 * Random bytes for event ids, drawn from the system in blocks: one event per booking write, and a
 * call into the system's generator for each 16 bytes costs more than the rest of the id.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

export function newEventId(at: number): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, (used += 16));
  return eventId(at, bytes);
}
