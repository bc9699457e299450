import type { FastifyReply } from 'fastify';
import type { CachedBody } from '../services/cached-body.js';

/**
 * Sends a serialised JSON body with its ETag. The reply is taken untyped: the bytes were built by
 * a presenter typed by the route's model, and the route's response schema only documents them
 * (a Buffer is never serialised again).
 */
export function sendBody(reply: FastifyReply, answer: Pick<CachedBody, 'body' | 'etag'>): FastifyReply {
  return reply.header('etag', answer.etag).type('application/json; charset=utf-8').send(answer.body);
}
