import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ApiVariant } from '../../config.js';
import { StampedCache } from '../../db/freshness.js';
import { validationError } from '../../http/errors.js';
import { requestVariant, wantsControlCenter } from '../../http/variant.js';
import { presentUsers, type UserJson } from '../../presenters/users.js';
import type { AppServices } from '../../services.js';
import {
  isWithinStretch,
  membershipOf,
  parseIncludes,
  parseOnlyAtcActive,
  selectsUsers,
  unknownRelationMessage,
  type ActivityStretch,
  type Includes,
  type OnlyAtcActiveValue,
} from '../../domain/users/index.js';
import { listUsers } from './schema.js';

export interface UsersQueryString {
  include?: string[];
  onlyAtcActive?: OnlyAtcActiveValue;
}

export interface UsersRequest {
  includes: Includes;
  onlyAtcActive: boolean;
  variant: ApiVariant;
}

/** Validates the query string; unknown relations (per variant) are 422. */
export function parseUsersRequest(query: UsersQueryString, variant: ApiVariant): UsersRequest {
  const parsed = parseIncludes(query.include, variant);
  if (!parsed.ok) throw validationError({ include: [unknownRelationMessage(parsed.unknown, parsed.valid)] });
  return { includes: parsed.includes, onlyAtcActive: parseOnlyAtcActive(query.onlyAtcActive), variant };
}

/** The GET /api/users array at `now`. */
export async function buildUsersList(services: AppServices, req: UsersRequest, now: number): Promise<UserJson[]> {
  if (!selectsUsers(req.includes)) return [];
  const data = await services.repos.users.listForApi({
    includes: req.includes,
    membership: membershipOf(services.config),
    onlyAtcActive: req.onlyAtcActive,
    now,
  });
  return presentUsers(data, req.includes, req.variant);
}

const DATA_OPEN = Buffer.from('{"data":');
const DATA_CLOSE = Buffer.from('}');

// A full list with every relation runs to megabytes: keep only a few.
const CACHED_LISTS = 8;

/**
 * Kept as bytes: sending one Buffer to many clients copies nothing, where a string would be
 * encoded again for every response.
 */
interface UsersBody {
  body: Buffer;
  etag: string;
}

export default async function usersRoutes(app: FastifyInstance, { services }: { services: AppServices }) {
  const lists = new StampedCache<UsersBody>(services.freshness, CACHED_LISTS);
  // The stretch of time the latest build fell in, and the stamp it was worked out under.
  let stretch: (ActivityStretch & { stamp: string }) | null = null;
  const stretchAt = async (stamp: string, now: number): Promise<ActivityStretch> => {
    if (stretch === null || stretch.stamp !== stamp || !isWithinStretch(stretch, now)) {
      stretch = { ...(await services.repos.users.endorsementStretch(now)), stamp };
    }
    return stretch;
  };
  // Builds under way, so simultaneous first requests for one list share a single build.
  const building = new Map<string, Promise<UsersBody>>();
  const buildOnce = (key: string, build: () => Promise<UsersBody>): Promise<UsersBody> => {
    let pending = building.get(key);
    if (!pending) {
      pending = build().finally(() => building.delete(key));
      building.set(key, pending);
    }
    return pending;
  };

  const serialise = (users: UserJson[]): UsersBody => {
    const body = Buffer.from(JSON.stringify(users));
    return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  };

  /**
   * The serialised list, reused while the database is unchanged and no endorsement has started
   * or ended since it was built (the only part of the answer that depends on the clock).
   */
  async function usersBody(req: UsersRequest): Promise<UsersBody> {
    if (!selectsUsers(req.includes)) return serialise([]);
    const now = services.clock();
    const stamp = services.freshness.stamp();
    if (stamp === null) return serialise(await buildUsersList(services, req, now));
    const { from } = await stretchAt(stamp, now);
    const relations = Object.entries(req.includes)
      .filter(([, on]) => on)
      .map(([name]) => name)
      .join(',');
    // Under one stamp, the start of the stretch names it: equal starts, same active endorsements.
    const key = `${stamp}|${from}|${req.variant}|${relations}|${req.onlyAtcActive}`;
    return lists.get(key, () => buildOnce(key, async () => serialise(await buildUsersList(services, req, now))));
  }

  app.get('/api/users', { schema: listUsers, config: { auth: 'read' } }, async (request, reply) => {
    const variant = requestVariant(request, services.config.apiVariant);
    const req = parseUsersRequest(request.query as UsersQueryString, variant);
    const { body, etag } = await usersBody(req);
    reply.type('application/json; charset=utf-8');
    // Sent pre-serialised: the list can be large and its shape is already exact.
    if (!wantsControlCenter(request, services.config.apiCompat)) return reply.header('etag', etag).send(body);
    // Control Center clients read response.data: the same bytes inside an envelope, with an ETag of its own.
    return reply.header('etag', `${etag.slice(0, -1)}.data"`).send(Buffer.concat([DATA_OPEN, body, DATA_CLOSE]));
  });
}
