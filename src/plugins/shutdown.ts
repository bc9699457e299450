import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { ApiError } from '../http/errors.js';

/**
 * The first request hook of all. During shutdown every request is 503 (with Retry-After, as
 * every 503 is) without running anything else: the server stops taking work while in-flight
 * requests finish. The same hook refuses an HTTP/1.1 request without Host, which is malformed
 * (RFC 9112 §3.2), so that checking it costs no hook of its own.
 *
 * Connections are let go as soon as they carry no request. Node's close() only ends connections
 * idle between two requests: one opened that has not sent a byte yet counts as busy, and would
 * hold the shutdown until the client gives up (HTTP clients open such spare connections). A
 * connection whose response ends during shutdown is closed with it. In-flight requests are given
 * `requestTimeoutMs` to finish, the bound they had anyway.
 */
async function shutdown(app: FastifyInstance, { requestTimeoutMs }: { requestTimeoutMs: number }) {
  let closing = false;
  const busy = new Set<Socket>();
  const open = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  app.server.on('request', (req, res) => {
    const socket = req.socket;
    busy.add(socket);
    res.once('close', () => {
      busy.delete(socket);
      if (closing) socket.destroySoon();
    });
  });
  app.addHook('preClose', (done) => {
    closing = true;
    // Connections between two requests Node ends itself; one whose request is half sent is answered 503.
    for (const socket of open) if (socket.bytesRead === 0 && !busy.has(socket)) socket.destroy();
    setTimeout(() => {
      for (const socket of open) socket.destroy();
    }, requestTimeoutMs).unref();
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
