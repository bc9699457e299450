import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// Token: "sector_" + public key id (16 hex) + "_" + secret (32 random bytes, base64url).
// The id lets us find the row without comparing secrets; the secret is stored only as a hash.
export const TOKEN_PREFIX = 'sector_';
const TOKEN_RE = /^sector_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface IssuedToken {
  id: string;
  token: string;
  secretHash: string;
}

export function issueToken(): IssuedToken {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${TOKEN_PREFIX}${id}_${secret}`, secretHash: hashSecret(secret) };
}

// Control Center's keys are bare UUIDs; moved keys keep working (contract §19). Their public id
// is derived from the token, so the row is found the same way; only the hash is stored.
const CONTROLCENTER_TOKEN_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function controlCenterTokenId(token: string): string {
  return createHash('sha256').update(`controlcenter:${token.toLowerCase()}`).digest('hex').slice(0, 16);
}

export function parseToken(token: string): { id: string; secret: string } | null {
  if (CONTROLCENTER_TOKEN_RE.test(token)) return { id: controlCenterTokenId(token), secret: token.toLowerCase() };
  const m = TOKEN_RE.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : null;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
