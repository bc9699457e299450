import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * Browsers on any site may read the public GETs (the schedule, the calendar feed, the bookings
 * list); every other route has CORS off (src/plugins/route-defaults.ts). Not strict: an OPTIONS
 * request without CORS headers is answered like any other, never with a text error.
 */
async function crossOrigin(app: FastifyInstance) {
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD'],
    exposedHeaders: ['ETag', 'Link', 'Deprecation'],
    strictPreflight: false,
  });
}

export default fp(crossOrigin, { name: 'sector-cors' });
