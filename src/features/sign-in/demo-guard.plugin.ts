// npm run demo (src/app/demo-mode.ts): answers only requests made on this computer, and says on every
// page that it is a demo. A request through a proxy or tunnel (any Forwarded or X-Forwarded-*
// header), or naming this server by any host but a loopback one (a rebound DNS name), gets 403.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopbackHost } from '../../core/web/loopback.js';

const REFUSED =
  'This is a demo of Sector: it answers only on the computer it runs on (localhost, 127.0.0.1 or [::1]), not through a proxy, a tunnel or another name.';

const BANNER =
  '<aside class="demo-banner" aria-label="Demo"><p><strong>Demo:</strong> made-up people and bookings on this computer only; no mail or data leaves it. <a href="/auth/login">Sign in as another demo person</a></p></aside>';

const forwarded = (request: FastifyRequest) => Object.keys(request.headers).some((h) => h === 'forwarded' || h.startsWith('x-forwarded-'));

export function demoGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!forwarded(request) && isLoopbackHost(request.headers.host)) return;
    reply.code(403).header('cache-control', 'no-store');
    if (request.url.startsWith('/api')) return reply.send({ message: REFUSED });
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not here</title></head><body><main><h1>Not here</h1><p>${REFUSED}</p></main></body></html>`,
      );
  });

  // Every page says it is a demo, right after <body>.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const text = payload.toString();
    const at = /<body[^>]*>/.exec(text);
    if (at === null || text.includes('class="demo-banner"')) return payload;
    const end = at.index + at[0].length;
    return `${text.slice(0, end)}${BANNER}${text.slice(end)}`;
  });
}
