import type { FastifyRequest } from 'fastify';
import type { ApiCompat, ApiVariant } from '../../config.js';
import { ApiError } from './errors.js';

export const badVariant = () => new ApiError(400, 'Api-Variant must be "newer" or "older"');

/** The API variant of a request: Api-Variant header, else the key's pin, else the server default. */
export function requestVariant(request: FastifyRequest, fallback: ApiVariant): ApiVariant {
  const header = request.headers['api-variant'];
  if (header !== undefined) {
    if (header === 'newer' || header === 'older') return header;
    throw badVariant();
  }
  return request.apiKey?.variant ?? fallback;
}

/**
 * A bad Api-Variant is 400 on every API route, also where the variant changes nothing: a client
 * with a typo learns it at once (checked by each API route's hook, src/core/web/parameters.ts).
 */
export function isBadVariant(header: string | string[] | undefined): boolean {
  return header !== undefined && header !== 'newer' && header !== 'older';
}

/** The response envelope profile: the key's setting wins for keyed calls, else the server's. */
export function requestCompat(request: FastifyRequest, fallback: ApiCompat): ApiCompat {
  return request.apiKey?.compat ?? fallback;
}

/** True when the response is in Control Center's envelopes (docs/migrating-from-control-center.md). */
export function wantsControlCenter(request: FastifyRequest, fallback: ApiCompat): boolean {
  return requestCompat(request, fallback) === 'controlcenter';
}
