import fp from 'fastify-plugin';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { parseForm } from '../http/parameters.js';

export interface BodyParsersOptions {
  bodyLimit: number;
}

// JSON or form bodies (forms and Control Center scripts post the latter), else 415. Many clients label
// every request JSON, a bodiless DELETE included: an empty JSON body is no body.
async function bodyParsers(app: FastifyInstance, { bodyLimit }: BodyParsersOptions) {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );
  await app.register(formbody, { bodyLimit, parser: parseForm });
}

export default fp(bodyParsers, { name: 'sector-body-parsers' });
