import type { ApiVariant } from '../../config.js';
import { type Includes, type Membership, membershipOf, selectsUsers } from '../members/domain/index.js';
import { presentUsers } from './users.presenter.js';
import type { User } from './users.schema.js';
import type { Deps } from '../../app/deps.js';

/** One GET /api/users question, already validated. */
export interface UsersRequest {
  includes: Includes;
  onlyAtcActive: boolean;
  variant: ApiVariant;
}

/** GET /api/users: built in a constant number of queries, whatever the number of users. */
export class UsersService {
  /** Who counts as a member (computed once from DIVISION and SUBDIVISIONS). */
  private readonly membership: Membership;

  constructor(private readonly deps: Deps<'snapshot' | 'clock' | 'config'>) {
    this.membership = membershipOf(deps.config);
  }

  /** The users array now; its several queries read one snapshot. */
  async list(req: UsersRequest): Promise<User[]> {
    if (!selectsUsers(req.includes)) return [];
    const query = { includes: req.includes, membership: this.membership, onlyAtcActive: req.onlyAtcActive, now: this.deps.clock() };
    const data = await this.deps.snapshot((repos) => repos.users.listForApi(query));
    return presentUsers(data, req.includes, req.variant);
  }
}
