// The roster from the network (contract §15): every page is read and staged before anything is
// written, so a failure anywhere changes nothing; changes are planned in SQL a batch at a time.
import type { CoreApiConfig } from '../../config.js';
import {
  isMember,
  membershipFilter,
  parseMember,
  parseRosterPage,
  removesTooMany,
  RosterShapeError,
  type SkippedMember,
  stagedChange,
  type StagedResult,
  type UserChange,
} from './domain.js';
import type { MembershipSettings } from '../members/domain/membership.js';
import { userTarget, withoutEmailAddress } from '../audit/domain/index.js';
import type { ReadRepositories } from '../../app/repositories.js';
import { CoreApi } from './core-api.js';
import { RosterRun, RosterSyncError } from './roster-run.js';
import type { Lease } from '../../core/workers/lease.js';
import type { Write } from '../../app/deps.js';
import type { Deps } from '../../app/deps.js';

export { RosterSyncError } from './roster-run.js';

/** The network's page size limit. */
const PAGE = 1000;
/** Changes written per transaction (and planned per read). */
const CHANGES_PER_TRANSACTION = 1000;
/** Staged rows read at once. */
const ROWS_PER_READ = 250;
/** Leavers looked up at once. */
const LOOKUPS_AT_ONCE = 4;
/** Leavers read from the database, looked up and staged per batch. */
const LEAVERS_PER_BATCH = 100;
/** No division has this many members: a count beyond it is a broken response. */
const MAX_COUNT = 5_000_000;
/** A run's lease outlasts its slowest step (one request's timeout) with room to spare. */
export const rosterLeaseMs = (coreApi: CoreApiConfig) => 2 * coreApi.timeoutMs + 60_000;

export interface RosterSyncOptions {
  dryRun?: boolean;
  /** Apply a roster that takes away more than half of the members. */
  force?: boolean;
  signal?: AbortSignal;
  /** The lease the worker running the sync took; a command's run takes its own. */
  lease?: Lease | null;
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
  /** Members left as they are, with the reason: a rating outside the list. */
  skipped: SkippedMember[];
}

export type RosterSyncDeps = Deps<'writer' | 'repos' | 'http' | 'clock'> & {
  coreApi: CoreApiConfig;
  membership: MembershipSettings;
};

/** `npx sector roster:sync` and the server's roster-sync worker. */
export class RosterSyncService {
  constructor(private readonly deps: RosterSyncDeps) {}

  sync(options: RosterSyncOptions = {}): Promise<RosterSyncResult> {
    return syncRoster(this.deps, options);
  }
}

async function syncRoster(deps: RosterSyncDeps, options: RosterSyncOptions): Promise<RosterSyncResult> {
  const { coreApi, membership, repos } = deps;
  if (coreApi.key === null) throw new RosterSyncError('CORE_API_KEY is not set: the roster cannot be read from the network');
  const filter = membershipFilter(membership);
  if (filter === null) throw new RosterSyncError('DIVISION (or SUBDIVISIONS) is not set: there is no roster to read');
  const api = new CoreApi(deps.http, coreApi.url, coreApi.key, coreApi.timeoutMs, options.signal);
  const sources =
    membership.subdivisions.length > 0
      ? // Each once: a subdivision read twice would repeat every member.
        [...new Set(membership.subdivisions)].map((s) => `v2/orgs/subdivision/${encodeURIComponent(s)}`)
      : [`v2/orgs/division/${encodeURIComponent(membership.division!)}`];

  const run = await RosterRun.start(deps.writer, deps.clock, rosterLeaseMs(coreApi), options.lease ?? null);
  const staging = repos.rosterStaging;
  try {
    // By id: a member skipped in the roster is skipped again when looked up.
    const skipped = new Map<number, string>();
    for (const source of sources) await stageRoster(api, run, source, skipped);
    await staging.refreshStatistics();
    const roster = await staging.count(run.id, 'roster');

    // Counted before any leaver is looked up: missing from the roster, or moved out of the division by it.
    const { members, removed } = await staging.countMembersAndRemoved(run.id, filter);
    if (removesTooMany(removed, members) && !options.force) {
      throw new RosterSyncError(
        `the roster would take away ${removed} of ${members} members (more than half): refused, nothing changed (npx sector roster:sync --force applies it)`,
      );
    }
    const gone = await stageLeavers(api, run, repos, filter, membership, skipped);

    const result: RosterSyncResult = {
      dry_run: Boolean(options.dryRun),
      roster,
      created: [],
      updated: [],
      gone: gone.sort((a, b) => a - b),
      unchanged: 0,
      skipped: [...skipped].map(([id, reason]) => ({ id, reason })).sort((a, b) => a.id - b.id),
    };
    const staged = await staging.count(run.id);
    let changes = 0;
    for (let after = 0; ;) {
      // A dry run only reads; a real one reads each batch in the transaction that applies it, so the
      // users it compares with are the ones it writes over.
      if (options.dryRun) await run.keep();
      const batch = options.dryRun
        ? await planAndApply(repos, run.id, after, null)
        : await run.write((w) => planAndApply(w.repos, run.id, after, w));
      if (batch.lastId === null) break;
      result.created.push(...batch.created);
      result.updated.push(...batch.updated);
      changes += batch.created.length + batch.updated.length;
      after = batch.lastId;
    }
    result.unchanged = staged - changes;
    return result;
  } finally {
    // A failed end leaves the lease to lapse; the next run removes these rows then.
    await run.end().catch(() => undefined);
  }
}

/**
 * Up to CHANGES_PER_TRANSACTION changes after `after`, each with its audit entry, in `w` (null: dry run).
 * Rows are read a slice at a time so few are alive at once.
 */
async function planAndApply(
  repos: ReadRepositories,
  runId: string,
  after: number,
  w: Write | null,
): Promise<{ created: number[]; updated: number[]; lastId: number | null }> {
  const created: number[] = [];
  const updated: number[] = [];
  let lastId: number | null = null;
  while (created.length + updated.length < CHANGES_PER_TRANSACTION) {
    const limit = Math.min(ROWS_PER_READ, CHANGES_PER_TRANSACTION - created.length - updated.length);
    const rows = await repos.rosterStaging.changedAfter(runId, lastId ?? after, limit);
    const changes: UserChange[] = [];
    for (const { result, stored } of rows) {
      const change = stagedChange(result, stored);
      if (change === null) continue;
      changes.push(change);
      (change.before === null ? created : updated).push(change.id);
    }
    const last = rows.at(-1);
    if (last === undefined) break;
    const range: { afterId: number; lastId: number } = { afterId: lastId ?? after, lastId: idOf(last.result) };
    if (w !== null && changes.length > 0) {
      await w.repos.roster.applyStagedChanges(runId, range, changes, w.at);
      await w.audit(
        { kind: 'roster' },
        changes.map((c) => ({
          action: c.before === null ? 'user.create' : 'user.update',
          target: userTarget(c.id),
          before: withoutEmailAddress(c.before),
          after: withoutEmailAddress(c.after),
        })),
      );
    }
    lastId = range.lastId;
    if (rows.length < limit) break;
  }
  return { created, updated, lastId };
}

const idOf = (a: StagedResult): number => (a.kind === 'unknown' ? a.id : a.member.id);

// Reads and stages a roster page by page. One that pages on without end (a full page of nothing new,
// or more pages than its count needs) is refused at once.
async function stageRoster(api: CoreApi, run: RosterRun, source: string, skipped: Map<number, string>): Promise<void> {
  let read = 0;
  let count = Infinity;
  let pages = 0;
  let pagesDue = Infinity;
  while (read < count) {
    const where = `${source}?offset=${read}`;
    if (pages >= pagesDue) {
      throw new RosterSyncError(
        `the network's roster (${where}) counts ${count} members after the ${pages} pages of ${PAGE} its first count needed: refused, nothing changed`,
      );
    }
    await run.keep();
    const page = parseRosterPage(await api.json(`${source}?limit=${PAGE}&offset=${read}`, where), where);
    if (page.count > MAX_COUNT) throw new RosterSyncError(`the network's roster (${where}) claims ${page.count} members: refused`);
    if (pages++ === 0) pagesDue = Math.ceil(page.count / PAGE);
    count = page.count;
    if (page.listed > PAGE || (page.listed < PAGE && read + page.listed < count)) {
      throw new RosterSyncError(
        `the network's roster (${where}) sent ${page.listed} of the ${PAGE} members a page holds before the ${count} it counts were read: refused, nothing changed`,
      );
    }
    const results = page.items.map((member): StagedResult => ({ kind: 'roster', member }));
    await run.write(async (w) => {
      const ids = page.items.map((m) => m.id);
      if (ids.length > 0 && (await w.repos.rosterStaging.countAmong(run.id, ids)) === new Set(ids).size) {
        throw new RosterSyncError(`the network's roster (${where}) repeats members it sent before: refused, nothing changed`);
      }
      await w.repos.rosterStaging.stage(run.id, results);
    });
    for (const m of page.skipped) if (!skipped.has(m.id)) skipped.set(m.id, m.reason);
    read += page.listed;
  }
}

/**
 * Looks up each member missing from the roster, a batch at a time, and stages the results; returns
 * the ids of those who are no longer members.
 */
async function stageLeavers(
  api: CoreApi,
  run: RosterRun,
  repos: ReadRepositories,
  filter: NonNullable<ReturnType<typeof membershipFilter>>,
  membership: MembershipSettings,
  skipped: Map<number, string>,
): Promise<number[]> {
  const gone: number[] = [];
  for (let after = 0; ;) {
    const ids = await repos.rosterStaging.leaversAfter(run.id, filter, after, LEAVERS_PER_BATCH);
    if (ids.length === 0) return gone;
    const results = await lookUpAll(api, run, ids, skipped);
    for (const a of results) if (a.kind === 'unknown' || !isMember(a.member, membership)) gone.push(idOf(a));
    await run.write((w) => w.repos.rosterStaging.stage(run.id, results));
    after = ids.at(-1)!;
  }
}

/**
 * Each leaver's member record, or `unknown` when the network does not know the id any more (404);
 * a record with a rating outside the list is skipped instead (the user stays as it is).
 */
async function lookUpAll(api: CoreApi, run: RosterRun, ids: readonly number[], skipped: Map<number, string>): Promise<StagedResult[]> {
  const out: StagedResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const path = `v2/members/${id}`;
      await run.keep();
      const body = await api.json(path, path, true);
      if (body === null) {
        out.push({ kind: 'unknown', id });
        continue;
      }
      const parsed = parseMember(body, path, false);
      if (parsed.skipped) {
        if (!skipped.has(id)) skipped.set(id, parsed.skipped.reason);
        continue;
      }
      // Staged under the id looked up: the result describes that user.
      out.push({ kind: 'member', member: { ...parsed.member, id } });
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, ids.length) }, worker));
  return out;
}

/** A shape error, as the one line the operator reads. */
export function describeRosterError(err: unknown): string | null {
  if (err instanceof RosterSyncError) return err.message;
  if (err instanceof RosterShapeError) return `the network's API responded with an unexpected shape (${err.message}); nothing changed`;
  return null;
}
