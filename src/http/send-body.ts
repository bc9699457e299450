import type { FastifyReply } from 'fastify';
import type { CachedBody } from '../services/cached-body.js';

/** Sends a serialised JSON body with its ETag. */
export function sendBody(reply: FastifyReply, answer: Pick<CachedBody, 'body' | 'etag'>): FastifyReply {
  return reply.header('etag', answer.etag).type('application/json; charset=utf-8').send(answer.body);
}
