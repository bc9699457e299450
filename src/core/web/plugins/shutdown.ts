import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { ApiError } from '../errors.js';

/**
 * The first request hook: during shutdown every request is 503 while in-flight ones finish (within
 * `requestTimeoutMs`), and an HTTP/1.1 request without Host is refused (RFC 9112 §3.2). Connections
 * are let go as soon as they carry no request: Node's close() counts an opened but silent one as busy.
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
    // Connections between two requests Node ends itself; one whose request is half sent gets a 503.
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
