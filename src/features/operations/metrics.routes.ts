import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Metrics } from '../../core/metrics.js';

/** GET /metrics (Prometheus): public, as exporters usually are (no personal data); not rate limited, never cached. */
const metricsRoutes: FastifyPluginAsyncTypebox<{ metrics: Metrics }> = async (app, { metrics }) => {
  app.get(
    '/metrics',
    {
      // Not in the OpenAPI document: a text exposition for Prometheus, not part of the JSON API
      // (docs/operations.md describes it).
      schema: { hide: true },
      logLevel: 'warn',
      // Figures of this moment: no ETag (the application's own hook adds one to every body) and no 304.
      onSend: (_request, reply, payload, done) => {
        reply.removeHeader('etag');
        done(null, payload);
      },
    },
    async (_request, reply) => {
      const { contentType, body } = await metrics.scrape();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    },
  );
};

export default metricsRoutes;
