import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../services/metrics.js';

export interface RequestMetricsOptions {
  metrics: Metrics;
}

/**
 * Counts every answered request by route template (`unmatched` for 404/405 of unknown routes),
 * for GET /metrics. Registered at the root before any route or not-found handler, so it sees them all.
 */
async function requestMetrics(app: FastifyInstance, { metrics }: RequestMetricsOptions) {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

export default fp(requestMetrics, { name: 'sector-request-metrics' });
