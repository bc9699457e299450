import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors.js';

/**
 * The first request hook of all. During shutdown every request is 503 (with Retry-After, as
 * every 503 is) without running anything else: the server stops taking work while in-flight
 * requests finish. The same hook refuses an HTTP/1.1 request without Host, which is malformed
 * (RFC 9112 §3.2), so that checking it costs no hook of its own.
 */
async function shutdown(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      return void reply
        .code(503)
        .headers({ 'retry-after': '1', 'cache-control': 'no-store', connection: 'close' })
        .send({ message: 'The server is shutting down; try again shortly' });
    }
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      return done(new ApiError(400, 'Malformed request: an HTTP/1.1 request needs a Host header', {}, { 'cache-control': 'no-store' }));
    }
    done();
  });
}

export default fp(shutdown, { name: 'sector-shutdown' });
