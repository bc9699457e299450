import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { AuthLevel } from './auth-levels.js';
import { ErrorBody } from './schema-atoms.js';

// Responses every API route may give whatever it does: malformed requests (JSON, Api-Variant,
// too many parameters, repeated credentials), and a database that is busy or down, or a server
// shutting down (nothing changed; retry).
const EVERY_ROUTE_RESPONSES = {
  400: {
    ...ErrorBody,
    description:
      'Malformed request: bad JSON, an Api-Variant other than newer/older, too many parameters, more than one Authorization header, ' +
      'or a request the HTTP layer cannot parse (no Host, bad framing)',
  },
  503: {
    ...ErrorBody,
    description: 'The database is busy or unavailable, or the server is shutting down; nothing changed. Retry after the Retry-After header',
  },
};

const AUTH_NOTE: Record<AuthLevel, string> = {
  public: 'No API key needed.',
  optional: 'Works without an API key; with one, the full form is returned.',
  read: 'Needs an API key (read or edit scope).',
  edit: 'Needs an API key with edit scope.',
};

/**
 * Where the server listens, as its configuration says (HOST and PORT); a wildcard address is shown
 * as localhost, since clients cannot connect to it.
 */
export function serverUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/** OpenAPI 3.1 document at /openapi.json and a docs page at /docs, from the route schemas. */
async function openapi(app: FastifyInstance, opts: { version: string; serverUrl: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sector API',
        version: opts.version,
        description:
          'Control-centre API of one air traffic control division: controllers, bookings of control ' +
          'positions, positions. Authenticate with `Authorization: Bearer <API_KEY>`; keys are made ' +
          'with `npx sector create:apikey`. Errors are JSON `{"message": …}`; 422 adds `errors` per field.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: opts.serverUrl, description: 'This server, as configured by HOST and PORT' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key from `sector create:apikey`' } },
      },
    },
    transform: ({ schema, url, route }) => {
      // Routes without a schema (the document's own, the UI's assets) reach here with none at run time.
      const level = route.config?.auth;
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (!level || !schema) return { schema, url };
      const s = { ...schema } as Record<string, unknown>;
      s.security = level === 'public' ? [] : level === 'optional' ? [{}, { bearer: [] }] : [{ bearer: [] }];
      s.description = [s.description, AUTH_NOTE[level]].filter(Boolean).join('\n\n');
      s.response = { ...EVERY_ROUTE_RESPONSES, ...(s.response as object | undefined) };
      return { schema: s, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

export default fp(openapi, { name: 'sector-openapi' });
