import type { ApiVariant } from '../config.js';
import type { Db } from '../db/connection.js';
import { readSnapshot } from '../db/transaction.js';
import { type Includes, type Membership, selectsUsers } from '../domain/users/index.js';
import type { Clock } from '../domain/time.js';
import { presentUsers } from '../presenters/users.js';
import { readRepositories } from '../repositories/index.js';
import type { User } from '../schemas/users.js';

/** One GET /api/users question, already validated. */
export interface UsersRequest {
  includes: Includes;
  onlyAtcActive: boolean;
  variant: ApiVariant;
}

/** GET /api/users: built in a constant number of queries, whatever the number of users. */
export class Users {
  constructor(
    /** Who counts as a member (computed once from DIVISION and SUBDIVISIONS). */
    private readonly membership: Membership,
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The users array now; its several queries read one snapshot. */
  async list(req: UsersRequest): Promise<User[]> {
    if (!selectsUsers(req.includes)) return [];
    const query = { includes: req.includes, membership: this.membership, onlyAtcActive: req.onlyAtcActive, now: this.clock() };
    const data = await readSnapshot(this.db, (trx) => readRepositories(trx, this.db.dialect).users.listForApi(query));
    return presentUsers(data, req.includes, req.variant);
  }
}
