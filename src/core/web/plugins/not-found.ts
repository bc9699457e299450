import fp from 'fastify-plugin';
import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkRequest } from '../parameters.js';

/**
 * 405 with Allow for a known path asked with another method, else 404, in the JSON error shape. A
 * query Sector's parser refused is refused here too (a route may hand its request over).
 */
async function notFound(app: FastifyInstance) {
  // A second router that only knows paths and methods, to tell 404 from 405.
  const paths = FindMyWay({ ignoreTrailingSlash: false });
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // The CORS preflight route responds to OPTIONS on every path; it says nothing about paths.
    if (route.url === '*' || route.url === '/*') return;
    for (const m of methods) {
      let set = methodsByPath.get(route.url);
      if (!set) {
        set = new Set();
        methodsByPath.set(route.url, set);
        paths.on('GET', route.url, () => {}, { url: route.url });
      }
      set.add(m);
    }
  });

  const respond = (request: FastifyRequest, reply: FastifyReply) => {
    checkRequest(request, { variant: false });
    const path = request.url.split('?')[0] ?? '/';
    const match = paths.find('GET', path);
    const allowed = match ? methodsByPath.get((match.store as { url: string }).url) : undefined;
    // A route of this method that found nothing (a missing file under /docs/static/) is 404.
    if (allowed && allowed.size > 0 && !allowed.has(request.method)) {
      return reply
        .code(405)
        .header('allow', [...allowed].join(', '))
        .send({ message: `Method ${request.method} is not allowed here; allowed: ${[...allowed].join(', ')}` });
    }
    return reply.code(404).send({ message: `Route ${request.method} ${path} not found` });
  };
  app.setNotFoundHandler(respond);
  // Before its body is read: a path that takes no such request is 404 or 405 whatever its body, not a
  // 400 for a body no route would ever read.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return respond(request, reply);
  });
}

export default fp(notFound, { name: 'sector-not-found' });
