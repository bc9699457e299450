// The roster from the network (contract §15): every page is read and checked before anything is
// written, so a broken page, a refusal or a timeout anywhere changes nothing.
import type { CoreApiConfig } from '../config.js';
import type { Db } from '../db/connection.js';
import type { Freshness } from '../db/freshness.js';
import { writeTransaction } from '../db/transaction.js';
import {
  changeOf,
  goneChange,
  isMember,
  parseMember,
  parseRosterPage,
  removesTooMany,
  type RosterMember,
  RosterShapeError,
  type StoredUser,
  type UserChange,
} from '../domain/network/roster.js';
import type { Clock } from '../domain/time.js';
import type { MembershipSettings } from '../domain/users/membership.js';
import { allStoredUsers, applyUserChanges } from '../repositories/roster.js';
import { describeFailure, getBounded } from './network/http-get.js';

/** The network's page size limit. */
const PAGE = 1000;
/** A roster page of 1,000 members is a few hundred kilobytes. */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;
/** Changes written per transaction. */
const CHANGES_PER_TRANSACTION = 1000;
/** Leavers looked up at once. */
const LOOKUPS_AT_ONCE = 4;
/** No division has this many members: a count beyond it is a broken answer. */
const MAX_COUNT = 5_000_000;

/** The sync could not run or was refused: nothing was changed. One line for the operator. */
export class RosterSyncError extends Error {}

export interface RosterSyncOptions {
  dryRun?: boolean;
  /** Apply a roster that takes away more than half of the members. */
  force?: boolean;
  signal?: AbortSignal;
}

export interface RosterSyncResult {
  dry_run: boolean;
  /** Members in the network's roster. */
  roster: number;
  created: number[];
  updated: number[];
  /** Members of Sector missing from the roster who are no longer members (looked up one by one). */
  gone: number[];
  unchanged: number;
}

export interface RosterSyncDeps {
  db: Db;
  coreApi: CoreApiConfig;
  membership: MembershipSettings;
  clock: Clock;
  freshness: Freshness;
}

export async function syncRoster(deps: RosterSyncDeps, options: RosterSyncOptions = {}): Promise<RosterSyncResult> {
  const { coreApi, membership } = deps;
  if (coreApi.key === null) throw new RosterSyncError('CORE_API_KEY is not set: the roster cannot be read from the network');
  if (membership.division === null && membership.subdivisions.length === 0) {
    throw new RosterSyncError('DIVISION (or SUBDIVISIONS) is not set: there is no roster to read');
  }
  const api = new CoreApi(coreApi.url, coreApi.key, coreApi.timeoutMs, options.signal);
  const sources =
    membership.subdivisions.length > 0
      ? membership.subdivisions.map((s) => `v2/orgs/subdivision/${encodeURIComponent(s)}`)
      : [`v2/orgs/division/${encodeURIComponent(membership.division!)}`];

  const roster = new Map<number, RosterMember>();
  for (const source of sources) for (const m of await readRoster(api, source)) roster.set(m.id, m);

  const stored = await allStoredUsers(deps.db.kysely);
  const changes: UserChange[] = [];
  let unchanged = 0;
  for (const member of roster.values()) {
    const change = changeOf(stored.get(member.id), member);
    if (change === null) unchanged++;
    else changes.push(change);
  }
  const members = [...stored.values()].filter((u) => isMember(u, membership));
  const leavers = members.filter((u) => !roster.has(u.id));
  if (removesTooMany(leavers.length, members.length) && !options.force) {
    throw new RosterSyncError(
      `the roster would take away ${leavers.length} of ${members.length} members (more than half): refused, nothing changed (npx sector roster:sync --force applies it)`,
    );
  }
  const gone: number[] = [];
  const answers = await lookUpAll(api, leavers);
  for (const [user, member] of answers) {
    const change = member === null ? goneChange(user) : changeOf(user, member);
    if (member === null || !isMember(member, membership)) gone.push(user.id);
    if (change !== null) changes.push(change);
    else unchanged++;
  }

  const result: RosterSyncResult = {
    dry_run: Boolean(options.dryRun),
    roster: roster.size,
    created: changes.filter((c) => c.before === null).map((c) => c.id),
    updated: changes.filter((c) => c.before !== null).map((c) => c.id),
    gone: gone.sort((a, b) => a - b),
    unchanged,
  };
  if (options.dryRun || changes.length === 0) return result;

  const now = deps.clock();
  for (let i = 0; i < changes.length; i += CHANGES_PER_TRANSACTION) {
    // Whole rows for one transaction at a time: a roster of 100,000 never holds them all at once.
    const rows = changes
      .slice(i, i + CHANGES_PER_TRANSACTION)
      .map((change) => ({ change, row: { ...emptyUser(change.id), ...stored.get(change.id), ...change.after } }));
    await writeTransaction(deps.db, (trx) => applyUserChanges(trx, rows, now));
    deps.freshness.bump('users', 'names');
  }
  return result;
}

const emptyUser = (id: number): StoredUser => ({
  id,
  email: null,
  first_name: null,
  last_name: null,
  rating: 1,
  region: null,
  division: null,
  subdivision: null,
});

async function readRoster(api: CoreApi, source: string): Promise<RosterMember[]> {
  const items: RosterMember[] = [];
  let count = Infinity;
  while (items.length < count) {
    const where = `${source}?offset=${items.length}`;
    const page = parseRosterPage(await api.json(`${source}?limit=${PAGE}&offset=${items.length}`, where), where);
    if (page.count > MAX_COUNT) throw new RosterSyncError(`the network's roster (${where}) claims ${page.count} members: refused`);
    count = page.count;
    if (page.items.length === 0 && items.length < count) {
      throw new RosterSyncError(`the network's roster (${where}) ended at ${items.length} of the ${count} members it counts`);
    }
    items.push(...page.items);
  }
  return items;
}

/** Each leaver's member record, or null when the network does not know the id any more (404). */
async function lookUpAll(api: CoreApi, leavers: StoredUser[]): Promise<Array<[StoredUser, RosterMember | null]>> {
  const out: Array<[StoredUser, RosterMember | null]> = [];
  let next = 0;
  const worker = async () => {
    while (next < leavers.length) {
      const user = leavers[next++]!;
      const path = `v2/members/${user.id}`;
      const body = await api.json(path, path, true);
      out.push([user, body === null ? null : parseMember(body, path, false)]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, leavers.length) }, worker));
  return out;
}

class CoreApi {
  private readonly base: URL;
  constructor(
    url: string,
    private readonly key: string,
    private readonly timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.base = new URL(`${url}/`);
  }

  /** The parsed answer of a 200; null for a 404 when `notFoundIsNull`; anything else throws. */
  async json(path: string, where: string, notFoundIsNull = false): Promise<unknown> {
    const answer = await getBounded(new URL(path, this.base), {
      headers: { 'x-api-key': this.key },
      timeoutMs: this.timeoutMs,
      maxBytes: MAX_PAGE_BYTES,
      ...(this.signal ? { signal: this.signal } : {}),
    });
    if (answer.ok && answer.status === 404 && notFoundIsNull) return null;
    if (!answer.ok || answer.status !== 200)
      throw new RosterSyncError(`the network's API failed (${where}): ${describeFailure(answer)}; nothing changed`);
    try {
      return JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw new RosterSyncError(`the network's API answered something that is not JSON (${where}); nothing changed`);
    }
  }
}

/** A shape error, as the one line the operator reads. */
export function describeRosterError(err: unknown): string | null {
  if (err instanceof RosterSyncError) return err.message;
  if (err instanceof RosterShapeError) return `the network's API answered an unexpected shape (${err.message}); nothing changed`;
  return null;
}
