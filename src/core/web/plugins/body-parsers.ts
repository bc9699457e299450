import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { FORM_LIMITS, type FormLimits, parseForm } from '../parameters.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's form carries a list of up to this many items (`bookings[0][cid]=…`): its limits grow with it. */
    formItems?: { count: number; fields: number };
  }
}

export interface BodyParsersOptions {
  bodyLimit: number;
}

/**
 * A list's form: room for every field of every item, and one level deeper (list, index, field).
 * The fields bound it; the index does not, so that a list of too many items reaches the schema,
 * which names the list's limit, rather than being parsed as an object.
 */
const listLimits = ({ count, fields }: { count: number; fields: number }): FormLimits => {
  const parameterLimit = Math.max(FORM_LIMITS.parameterLimit, count * fields);
  return { parameterLimit, arrayLimit: parameterLimit, depth: 2 };
};

// JSON or form bodies (forms and Control Center scripts post the latter), else 415. Many clients label
// every request JSON, a bodiless DELETE included: an empty JSON body is no body.
async function bodyParsers(app: FastifyInstance, { bodyLimit }: BodyParsersOptions) {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );
  // Parsed after routing, so a route's own limits apply.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const items = request.routeOptions.config.formItems;
    try {
      done(null, parseForm(body as string, items ? listLimits(items) : FORM_LIMITS));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

export default fp(bodyParsers, { name: 'sector-body-parsers' });
