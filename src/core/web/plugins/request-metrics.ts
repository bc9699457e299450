import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../metrics.js';

export interface RequestMetricsOptions {
  metrics: Metrics;
}

/**
 * Counts every request once it is responded to, by route template (never the raw URL), for
 * GET /metrics; requests no route matched (404, 405) have no template and count as `unmatched`.
 */
async function requestMetrics(app: FastifyInstance, { metrics }: RequestMetricsOptions) {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
}

export default fp(requestMetrics, { name: 'sector-request-metrics' });
