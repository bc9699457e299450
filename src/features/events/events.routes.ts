import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PROTECTIVE_HEADERS } from '../../core/web/client-errors.js';
import type { RouteServices } from '../../app/services.js';
import type { StreamSink } from './stream.service.js';
import { streamEvents } from './events.schema.js';
import { acceptsEvent, parseEventFilter } from './domain.js';
import { ValidationError } from '../../core/domain/errors.js';

/** The reset a client with an unknown or expired Last-Event-ID receives: it re-reads the lists. */
const RESET = `event: reset\ndata: {"message":"Last-Event-ID is unknown or past the retention; re-read the lists"}\n\n`;

/** Seconds a client refused for a cap waits before trying again (places free as streams close). */
const RETRY_AFTER_S = 30;

const eventsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const stream = services.eventStream;
  const bound = services.config.eventStreamBufferBytes;
  // Streams end at shutdown, before the server waits for its connections to close.
  app.addHook('preClose', (done) => {
    stream.close();
    done();
  });

  app.get('/api/events', { schema: streamEvents, config: { auth: 'read' }, exposeHeadRoute: false }, async (request, reply) => {
    const lastEventId = request.headers['last-event-id'];
    let accepts: (type: string) => boolean;
    try {
      const { types } = request.query;
      accepts = acceptsEvent(types === undefined ? null : parseEventFilter(typeof types === 'string' ? types : types.join(',')));
    } catch (err) {
      throw new ValidationError({ types: [(err as Error).message.replace('--events', 'types')] });
    }
    const res = reply.raw;
    let ended = false;
    const sink: StreamSink = {
      write: (text) => {
        if (ended) return false;
        res.write(text);
        // Bounded per client: one that stops reading is let go, and resumes with Last-Event-ID.
        if (res.writableLength > bound) {
          request.log.info({ buffered: res.writableLength }, 'event stream client fell too far behind; disconnected');
          ended = true;
          res.destroy();
          return false;
        }
        return true;
      },
      backedUp: () => res.writableLength > bound / 2,
      drained: () =>
        new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        }),
      end: () => {
        if (ended) return;
        ended = true;
        res.end();
      },
      closed: () => ended,
    };
    // The route needs a read key, so there is one.
    const refused = stream.admit(sink, request.apiKey!.id);
    if (refused !== null) {
      const message =
        refused === 'key'
          ? `This API key has ${services.config.eventsMaxStreamsPerKey} event streams open, the most it may; close one or retry later`
          : 'The server has as many event streams open as it may; retry later';
      return reply.code(429).header('retry-after', String(RETRY_AFTER_S)).send({ message });
    }
    res.on('close', () => {
      ended = true;
      stream.detach(sink);
    });
    reply.hijack();
    // Gone before the listener was there: its close has passed already.
    if (res.destroyed) {
      ended = true;
      stream.detach(sink);
      return;
    }
    res.writeHead(200, {
      ...PROTECTIVE_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // Proxies that buffer responses would hold the events back.
      'x-accel-buffering': 'no',
      connection: 'close',
    });
    res.flushHeaders();
    try {
      await stream.attach(sink, typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : undefined, RESET, accepts);
    } catch (err) {
      request.log.warn({ err }, 'event stream failed');
      res.destroy();
    }
  });
};

export default eventsRoutes;
