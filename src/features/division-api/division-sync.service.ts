// The reconcile with the division's hub (contract §22, division:sync and its daily worker): reads
// the hub's roster and tier lists, then what Sector wants, and makes the hub hold exactly that, one
// request at a time, recording each change as the hub acknowledges it. One run at a time across
// processes: a run holds the `division-sync` lease (the worker's too); a dry run only reads.
//
// The outbox (division-api.service.ts) and the sync touch tier endorsements both. The rule: a
// member with an open (pending or refused) request about a tier endorsement keeps their tier
// records on the hub as they are in this run; that request will make (or was refused making) the
// same change, and doing it here too would make a second record when it is sent (a create not
// marked unknown is posted without matching). The roster is the sync's alone: the outbox sends no
// roster requests. Events not yet taken into requests are taken first, and the hub is read before
// Sector, so a change committed meanwhile is the outbox's to send; the rare race left (a change
// committed between the two) makes at worst a duplicate, which the next run removes.
import type { Deps } from '../../app/deps.js';
import { Lease, LeaseLost } from '../../core/workers/lease.js';
import type { DivisionApiService } from './division-api.service.js';
import type { DivisionOperation } from './driver.domain.js';
import { type DivisionHub, HubFailure, type HubTierRecord, planSync, type TierAdd, tooManyRemoved } from './division-sync.domain.js';

export const DIVISION_SYNC_LEASE = 'division-sync';

/** The run could not start, was refused, or was stopped: one line; `report` says what it had done. */
export class DivisionSyncError extends Error {
  constructor(
    message: string,
    readonly report: DivisionSyncReport | null = null,
  ) {
    super(message);
  }
}

/** A recorded run: `division:status`'s `last_sync`. */
export interface DivisionSyncRecord {
  id: number;
  started_at: string;
  /** Null: under way, or its process stopped. */
  finished_at: string | null;
  forced: boolean;
  roster: { added: number[]; removed: number[] };
  tiers: { added: TierAdd[]; removed: HubTierRecord[] };
  error: string | null;
}

/** What `division:sync --json` prints. */
export interface DivisionSyncReport extends Omit<DivisionSyncRecord, 'id' | 'started_at' | 'finished_at'> {
  dry_run: boolean;
  /** The run's record (null: a dry run, which records nothing). */
  id: number | null;
  /** What the hub held and what Sector wants it to hold, when read. */
  hub: { roster: number; tiers: number };
  wanted: { roster: number; tiers: number };
  skipped: Array<{ user_cid: number; reason: string }>;
}

export interface DivisionSyncOptions {
  dryRun?: boolean;
  /** Apply a run that removes more than half of the hub's roster or tier endorsements. */
  force?: boolean;
  signal?: AbortSignal;
  /** The worker's lease; a command's run takes its own. */
  lease?: Lease | null;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class DivisionSyncService {
  constructor(
    private readonly o: Deps<'writer' | 'repos' | 'clock' | 'snapshot'> & {
      hub: DivisionHub;
      divisionApi: Pick<DivisionApiService, 'queue'>;
      leaseMs: number;
    },
  ) {}

  async sync(options: DivisionSyncOptions = {}): Promise<DivisionSyncReport> {
    let lease = options.lease ?? null;
    const own = !options.dryRun && lease === null;
    if (own) {
      const taken = await Lease.take(this.o.writer, this.o.clock, DIVISION_SYNC_LEASE, this.o.leaseMs);
      if (!('lease' in taken))
        throw new DivisionSyncError(
          `another division sync is running (started ${iso(taken.holder.startedAt)}, held until ${iso(taken.holder.heldUntil)} unless it makes progress): refused, nothing changed; try again once it has finished`,
        );
      lease = taken.lease;
    }
    try {
      return await this.run(options, options.dryRun ? null : lease, options.signal ?? new AbortController().signal);
    } catch (err) {
      if (err instanceof LeaseLost)
        throw new DivisionSyncError('this division sync stalled until its lease lapsed and another run took over: stopped');
      throw err;
    } finally {
      if (own) await lease?.release().catch(() => undefined);
    }
  }

  private async run(options: DivisionSyncOptions, lease: Lease | null, signal: AbortSignal): Promise<DivisionSyncReport> {
    const { hub } = this.o;
    const report: DivisionSyncReport = {
      dry_run: Boolean(options.dryRun),
      forced: Boolean(options.force),
      id: null,
      hub: { roster: 0, tiers: 0 },
      wanted: { roster: 0, tiers: 0 },
      roster: { added: [], removed: [] },
      tiers: { added: [], removed: [] },
      skipped: [],
      error: null,
    };
    const done = () => ({
      added: { roster: report.roster.added, tiers: report.tiers.added },
      removed: { roster: report.roster.removed, tiers: report.tiers.removed },
    });
    /** Records progress under the lease (a run that lost it changes nothing more). */
    const record = async (end: boolean) => {
      if (lease === null || report.id === null) return;
      const id = report.id;
      await this.o.writer.write(async (w) => {
        await lease.fence(w);
        await w.repos.divisionSyncs.progress(id, done(), end ? { finished_at: w.at, error: report.error } : null);
      });
    };
    if (lease !== null) {
      report.id = await this.o.writer.write(async (w) => {
        await lease.fence(w);
        return w.repos.divisionSyncs.start(w.at, report.forced);
      });
    }
    let changing = false;
    /** Ends the run with an error; the report goes with it once changes began (what was done before). */
    const stop = async (message: string): Promise<never> => {
      report.error = message;
      await record(true);
      throw new DivisionSyncError(message, changing ? report : null);
    };
    try {
      // Committed changes become the outbox's requests first; then the hub, then Sector (see the rule above).
      if (lease !== null) await this.o.divisionApi.queue(this.o.clock());
      const roster = await hub.roster(signal);
      const tiers = [...(await hub.tiers(1, signal)), ...(await hub.tiers(2, signal))];
      const now = this.o.clock();
      const { wanted, open, actor } = await this.o.snapshot(async (repos) => ({
        wanted: await repos.divisionSyncs.wanted(now),
        open: await repos.divisionRequests.open(),
        actor: await repos.divisionRequests.fallbackActor(),
      }));
      const busy = new Set(
        open.filter((r) => (JSON.parse(r.operation) as DivisionOperation | null)?.op.startsWith('tier_')).map((r) => r.member_cid),
      );
      const plan = planSync({ roster, tiers }, wanted, busy, actor);
      report.hub = { roster: roster.length, tiers: tiers.length };
      report.wanted = { roster: new Set(wanted.roster).size, tiers: wanted.tiers.length };
      report.skipped = plan.skipped;
      const refusal = options.force ? null : tooManyRemoved(plan, report.hub);
      if (refusal !== null) return await stop(refusal);
      if (options.dryRun) {
        report.roster = { added: plan.roster.add, removed: plan.roster.remove };
        report.tiers = { added: plan.tiers.add, removed: plan.tiers.remove };
        return report;
      }
      changing = true;
      // Members join before their endorsements are posted, and leave after theirs are removed.
      const steps: Array<() => Promise<void>> = [
        ...plan.roster.add.map((cid) => async () => void (await hub.addMember(cid, signal), report.roster.added.push(cid))),
        ...plan.tiers.remove.map((r) => async () => void (await hub.removeTier(r, signal), report.tiers.removed.push(r))),
        ...plan.tiers.add.map((t) => async () => void (await hub.addTier(t, signal), report.tiers.added.push(t))),
        ...plan.roster.remove.map((cid) => async () => void (await hub.removeMember(cid, signal), report.roster.removed.push(cid))),
      ];
      for (const step of steps) {
        await step();
        await record(false);
      }
    } catch (err) {
      if (err instanceof HubFailure) return await stop(`the division's hub stopped the sync: ${err.message}`);
      if (!(err instanceof DivisionSyncError) && !(err instanceof LeaseLost) && report.id !== null) {
        report.error = err instanceof Error ? err.message : String(err);
        await record(true).catch(() => undefined);
      }
      throw err;
    }
    await record(true);
    return report;
  }

  /** The latest recorded run (none: null). */
  async last(): Promise<DivisionSyncRecord | null> {
    const row = await this.o.repos.divisionSyncs.last();
    if (!row) return null;
    const added = JSON.parse(row.added) as { roster: number[]; tiers: TierAdd[] };
    const removed = JSON.parse(row.removed) as { roster: number[]; tiers: HubTierRecord[] };
    return {
      id: row.id,
      started_at: new Date(row.started_at).toISOString(),
      finished_at: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
      forced: row.forced === 1,
      roster: { added: added.roster, removed: removed.roster },
      tiers: { added: added.tiers, removed: removed.tiers },
      error: row.error,
    };
  }
}
