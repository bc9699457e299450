import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRouteHook } from '../http/route-hooks.js';
import type { Metrics } from '../services/metrics.js';

export interface RequestMetricsOptions {
  metrics: Metrics;
}

/**
 * Counts every answered request by route template, for GET /metrics, timed until its answer is
 * handed to the socket: each route gets a sending hook of its own that knows its template, so no
 * request looks its route up, and no request pays for a hook stage after the answer. Requests no
 * route matched (404, 405) are counted as `unmatched` through unmatchedObserver, which the
 * not-found handler calls. Registered before any route.
 */
async function requestMetrics(app: FastifyInstance, { metrics }: RequestMetricsOptions) {
  app.addHook('onRoute', (route) => {
    const url = route.url;
    addRouteHook(
      route,
      'onSend',
      (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
        metrics.observeRequest(request.method, url, reply.statusCode, reply.elapsedTime / 1000);
        done(null, payload);
      },
    );
  });
}

/** For the not-found handler: counts the request once its answer is sent, as `unmatched`. */
export function unmatchedObserver(metrics: Metrics) {
  return (request: FastifyRequest, reply: FastifyReply): void =>
    void reply.raw.once('finish', () => metrics.observeRequest(request.method, undefined, reply.statusCode, reply.elapsedTime / 1000));
}

export default fp(requestMetrics, { name: 'sector-request-metrics' });
