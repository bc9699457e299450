// Ids, secrets and signatures of events and webhook deliveries (Standard Webhooks).
import { createHmac, randomBytes, randomFillSync } from 'node:crypto';
import { eventId } from '../events/domain.js';

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

export const newWebhookId = (): string => `wh_${randomBytes(8).toString('hex')}`;

/** whsec_ + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the secret's decoded bytes. */
export function signDelivery(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
