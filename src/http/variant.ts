import type { FastifyRequest } from 'fastify';
import type { ApiCompat, ApiVariant } from '../config.js';
import { ApiError } from './errors.js';

/** The API variant of a request: Api-Variant header, else the key's pin, else the server default. */
export function requestVariant(request: FastifyRequest, fallback: ApiVariant): ApiVariant {
  const header = request.headers['api-variant'];
  if (header !== undefined) {
    if (header === 'newer' || header === 'older') return header;
    throw new ApiError(400, 'Api-Variant must be "newer" or "older"');
  }
  return request.apiKey?.variant ?? fallback;
}

/** The response envelope profile: the key's setting wins for keyed calls, else the server's. */
export function requestCompat(request: FastifyRequest, fallback: ApiCompat): ApiCompat {
  return request.apiKey?.compat ?? fallback;
}

/** True when the request is answered in Control Center's envelopes (contract §9). */
export function wantsControlCenter(request: FastifyRequest, fallback: ApiCompat): boolean {
  return requestCompat(request, fallback) === 'controlcenter';
}
