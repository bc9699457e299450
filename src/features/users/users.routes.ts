import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiVariant } from '../../config.js';
import { parseIncludes, parseOnlyAtcActive, unknownRelationMessage } from '../members/domain/index.js';
import { ValidationError } from '../../core/domain/errors.js';
import { requestVariant, wantsControlCenter } from '../../core/web/variant.js';
import type { RouteServices } from '../../app/services.js';
import type { UsersRequest } from './users.service.js';
import { listUsers, type UsersQuery } from './users.schema.js';

/** Validates the query string; unknown relations (per variant) are 422. */
export function parseUsersRequest(query: UsersQuery, variant: ApiVariant): UsersRequest {
  const parsed = parseIncludes(query.include, variant);
  if (!parsed.ok) throw new ValidationError({ include: [unknownRelationMessage(parsed.unknown, parsed.valid)] });
  return { includes: parsed.includes, onlyAtcActive: parseOnlyAtcActive(query.onlyAtcActive), variant };
}

const usersRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/users', { schema: listUsers, config: { auth: 'read' } }, async (request) => {
    const variant = requestVariant(request, services.config.apiVariant);
    const req = parseUsersRequest(request.query, variant);
    const users = await services.users.list(req);
    // Control Center clients read response.data.
    return wantsControlCenter(request, services.config.apiCompat) ? { data: users } : users;
  });
};

export default usersRoutes;
