import { createHash } from 'node:crypto';

/** A serialised JSON answer and its strong ETag, ready to send as it is. */
export interface CachedBody {
  /** Bytes, not a string: sending a Buffer copies nothing, a string is encoded again per response. */
  body: Buffer;
  etag: string;
  /** Memory the entry holds besides its body (an index kept with it), counted against the budget. */
  extraBytes?: number;
}

/** The strong ETag of a body: a hash of its bytes, the one way every answer's ETag is made. */
export const etagOf = (body: string | Buffer): string => `"${createHash('sha1').update(body).digest('base64url')}"`;

/** A body and its strong ETag. */
export function withEtag(body: Buffer): CachedBody {
  return { body, etag: etagOf(body) };
}

/** `value` as JSON bytes with their ETag: every cached answer is serialised this one way. */
export function serialiseWithEtag(value: unknown): CachedBody {
  return withEtag(Buffer.from(JSON.stringify(value)));
}
