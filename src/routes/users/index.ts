import type { FastifyInstance } from 'fastify';
import type { ApiVariant } from '../../config.js';
import { parseIncludes, parseOnlyAtcActive, unknownRelationMessage, type OnlyAtcActiveValue } from '../../domain/users/index.js';
import { ValidationError } from '../../domain/errors.js';
import { requestVariant, wantsControlCenter } from '../../http/variant.js';
import type { AppServices } from '../../services/index.js';
import type { UsersRequest } from '../../services/users-list.js';
import { listUsers } from '../../schemas/users.js';

export interface UsersQueryString {
  include?: string[];
  onlyAtcActive?: OnlyAtcActiveValue;
}

/** Validates the query string; unknown relations (per variant) are 422. */
export function parseUsersRequest(query: UsersQueryString, variant: ApiVariant): UsersRequest {
  const parsed = parseIncludes(query.include, variant);
  if (!parsed.ok) throw new ValidationError({ include: [unknownRelationMessage(parsed.unknown, parsed.valid)] });
  return { includes: parsed.includes, onlyAtcActive: parseOnlyAtcActive(query.onlyAtcActive), variant };
}

const DATA_OPEN = Buffer.from('{"data":');
const DATA_CLOSE = Buffer.from('}');

export default async function usersRoutes(app: FastifyInstance, { services }: { services: AppServices }) {
  app.get('/api/users', { schema: listUsers, config: { auth: 'read' } }, async (request, reply) => {
    const variant = requestVariant(request, services.config.apiVariant);
    const req = parseUsersRequest(request.query as UsersQueryString, variant);
    const { body, etag } = await services.usersList.body(req);
    reply.type('application/json; charset=utf-8');
    // Sent pre-serialised: the list can be large and its shape is already exact.
    if (!wantsControlCenter(request, services.config.apiCompat)) return reply.header('etag', etag).send(body);
    // Control Center clients read response.data: the same bytes inside an envelope, with an ETag of its own.
    return reply.header('etag', `${etag.slice(0, -1)}.data"`).send(Buffer.concat([DATA_OPEN, body, DATA_CLOSE]));
  });
}
