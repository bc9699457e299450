import type { ApiVariant, Config } from '../config.js';
import { type Freshness, VersionedCache, type Topic } from '../db/freshness.js';
import { type EndorsementInterval, type Includes, isWithinInterval, membershipOf, selectsUsers } from '../domain/users/index.js';
import type { Clock } from '../domain/time.js';
import { serialiseWithEtag } from './cached-body.js';
import { presentUsers } from '../presenters/users.js';
import type { User } from '../schemas/users.js';
import type { Db } from '../db/connection.js';
import { readSnapshot } from '../db/transaction.js';
import { usersRepository, type UsersRepository } from '../repositories/users.js';

/** One GET /api/users question, already validated. */
export interface UsersRequest {
  includes: Includes;
  onlyAtcActive: boolean;
  variant: ApiVariant;
}

/**
 * Kept as bytes: sending one Buffer to many clients copies nothing, where a string would be
 * encoded again for every response.
 */
export interface UsersBody {
  body: Buffer;
  etag: string;
}

// A full list with every relation runs to megabytes: keep only a few, and never more than
// USERS_CACHE_BYTES whatever the division's size. With the response cache's RESPONSE_CACHE_BYTES
// this bounds all cached bodies to 64 MiB. A single list may use the whole budget: it is the
// answer clients poll, and the most costly to build again.
const CACHED_LISTS = 8;
export const USERS_CACHE_BYTES = 32 * 1024 * 1024;

const usersBudget = {
  maxBytes: USERS_CACHE_BYTES,
  maxEntryBytes: USERS_CACHE_BYTES,
  sizeOf: (key: string, list: UsersBody) => list.body.byteLength + key.length * 2,
};

const serialise = (users: User[]): UsersBody => serialiseWithEtag(users);

/** What the users lists show: users and their relations, and the callsigns in training endorsements. */
export const USERS_TOPICS: readonly Topic[] = ['users', 'names', 'positions'];

/** The GET /api/users answer: built in a constant number of queries, reused while it holds. */
export class UsersList {
  private readonly lists: VersionedCache<UsersBody>;
  /** The interval of time the latest build fell in, and the version it was worked out under. */
  private interval: (EndorsementInterval & { version: string }) | null = null;
  /** Builds under way, so simultaneous first requests for one list share a single build. */
  private readonly building = new Map<string, Promise<UsersBody>>();

  constructor(
    private readonly config: Pick<Config, 'division' | 'subdivisions'>,
    private readonly db: Db,
    private readonly users: UsersRepository,
    private readonly freshness: Freshness,
    private readonly clock: Clock,
  ) {
    this.lists = new VersionedCache(freshness.versionOf(USERS_TOPICS), CACHED_LISTS, usersBudget);
  }

  /** The users array at `now`, uncached; its several queries read one snapshot. */
  async build(req: UsersRequest, now: number): Promise<User[]> {
    if (!selectsUsers(req.includes)) return [];
    const query = { includes: req.includes, membership: membershipOf(this.config), onlyAtcActive: req.onlyAtcActive, now };
    const data = await readSnapshot(this.db, (trx) => usersRepository(trx).listForApi(query));
    return presentUsers(data, req.includes, req.variant);
  }

  /**
   * The serialised list, reused while the database is unchanged and no endorsement has started
   * or ended since it was built (the only part of the answer that depends on the clock).
   */
  async body(req: UsersRequest): Promise<UsersBody> {
    if (!selectsUsers(req.includes)) return serialise([]);
    const now = this.clock();
    const version = await this.freshness.versionOf(USERS_TOPICS)();
    if (version === null) return serialise(await this.build(req, now));
    const { from } = await this.intervalAt(version, now);
    const relations = Object.entries(req.includes)
      .filter(([, on]) => on)
      .map(([name]) => name)
      .join(',');
    // Under one version, the start of the interval names it: equal starts, same active endorsements.
    const key = `${version}|${from}|${req.variant}|${relations}|${req.onlyAtcActive}`;
    return this.lists.get(key, () => this.buildOnce(key, async () => serialise(await this.build(req, now))), version);
  }

  private async intervalAt(version: string, now: number): Promise<EndorsementInterval> {
    if (this.interval === null || this.interval.version !== version || !isWithinInterval(this.interval, now)) {
      this.interval = { ...(await this.users.endorsementInterval(now)), version };
    }
    return this.interval;
  }

  private buildOnce(key: string, build: () => Promise<UsersBody>): Promise<UsersBody> {
    let pending = this.building.get(key);
    if (!pending) {
      pending = build().finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }
}
