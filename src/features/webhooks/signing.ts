// Ids, secrets and signatures of events and webhook deliveries (Standard Webhooks).
import { createHmac, randomBytes } from 'node:crypto';
export { newEventId } from '../../core/outbox.js';

export const newWebhookId = (): string => `wh_${randomBytes(8).toString('hex')}`;

/** whsec_ + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the secret's decoded bytes. */
export function signDelivery(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
