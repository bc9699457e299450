import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiVariant } from '../../config.js';
import { parseIncludes, parseOnlyAtcActive, unknownRelationMessage } from '../../domain/users/index.js';
import { ValidationError } from '../../domain/errors.js';
import { requestVariant, wantsControlCenter } from '../../http/variant.js';
import type { RouteServices } from '../../services/index.js';
import type { UsersRequest } from '../../services/users-list.js';
import { listUsers, type UsersQuery } from '../../schemas/users.js';

/** Validates the query string; unknown relations (per variant) are 422. */
export function parseUsersRequest(query: UsersQuery, variant: ApiVariant): UsersRequest {
  const parsed = parseIncludes(query.include, variant);
  if (!parsed.ok) throw new ValidationError({ include: [unknownRelationMessage(parsed.unknown, parsed.valid)] });
  return { includes: parsed.includes, onlyAtcActive: parseOnlyAtcActive(query.onlyAtcActive), variant };
}

const DATA_OPEN = Buffer.from('{"data":');
const DATA_CLOSE = Buffer.from('}');

const usersRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/users', { schema: listUsers, config: { auth: 'read' } }, async (request, reply) => {
    const variant = requestVariant(request, services.config.apiVariant);
    const req = parseUsersRequest(request.query, variant);
    const { body, etag } = await services.usersList.body(req);
    // Sent pre-serialised, as a Buffer, which is never serialised again: the list can be large, and
    // presentUsers built it typed by the User model. The response schema documents those bytes.
    const bytes: FastifyReply = reply.type('application/json; charset=utf-8');
    if (!wantsControlCenter(request, services.config.apiCompat)) return bytes.header('etag', etag).send(body);
    // Control Center clients read response.data: the same bytes inside an envelope, with an ETag of its own.
    return bytes.header('etag', `${etag.slice(0, -1)}.data"`).send(Buffer.concat([DATA_OPEN, body, DATA_CLOSE]));
  });
};

export default usersRoutes;
