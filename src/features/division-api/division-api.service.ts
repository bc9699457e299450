// Keeps the division's hub in step (contract §22): committed changes' events become stored
// requests (one write with the cursor, so each is owed once), and one worker under the lease sends
// them through the driver, in commit order per member, with back-off; refused ones wait for an operator.
import type { Deps, Write } from '../../app/deps.js';
import type { DivisionApiConfig } from '../../config.js';
import { ConflictError, NotFoundError } from '../../core/domain/errors.js';
import type { WorkerContext } from '../../core/workers/worker.js';
import { ratingValue } from '../members/domain/ratings.js';
import { type DivisionDriver, type DivisionOperation, retryDelayMs } from './driver.domain.js';
import type { DivisionRequestRow } from './division-requests.repository.js';
import { plan } from './plan.domain.js';
import { queueCpt } from './cpt.js';

const BATCH = 500;
/** The creates the driver matches against the hub's list when their last outcome is unknown. */
const MATCHED = new Set<DivisionOperation['op']>(['tier_add', 'solo_add']);

export interface DivisionRequestView {
  id: number;
  method: string;
  path: string;
  about: string;
  attempts: number;
  error?: string;
  created_at: string;
}

export class DivisionApiService {
  private readonly listeners: Array<(result: 'sent' | 'refused' | 'retry') => void> = [];

  constructor(private readonly o: Deps<'writer' | 'repos' | 'clock'> & { config: DivisionApiConfig; driver: DivisionDriver }) {}

  onResult(listener: (result: 'sent' | 'refused' | 'retry') => void): void {
    this.listeners.push(listener);
  }

  /** One worker run: takes new events into requests, then sends the next due one. True: may find more. */
  async run(ctx: Pick<WorkerContext, 'now' | 'signal'>): Promise<boolean> {
    const queued = await this.queue(ctx.now());
    const sent = await this.deliverNext(ctx.now(), ctx.signal);
    return queued || sent;
  }

  /** Turns committed events past the cursor into requests, in one write. True when it took some. */
  async queue(now: number): Promise<boolean> {
    return this.o.writer.write(async (w) => {
      const repo = w.repos.divisionRequests;
      const cursor = await repo.cursor();
      if (cursor === null) {
        await repo.start(now);
        return false;
      }
      const { rows, last } = await repo.events(cursor, BATCH);
      if (last === cursor) return queueCpt(w, [], now);
      const parsed = rows.map((r) => ({ type: r.type, data: (JSON.parse(r.body) as { data: Record<string, unknown> }).data }));
      await nameRoleActors(repo, rows, parsed);
      const cids = [...new Set(parsed.flatMap(({ data }) => memberOf(data)))];
      const names = parsed.flatMap(({ data }) => {
        const e = data['endorsement'] as { type?: string; rating?: string | null } | undefined;
        return e?.type === 'facility' && e.rating ? [e.rating] : [];
      });
      const facts = await repo.facts(cids, now);
      const tiers = await repo.tiers([...new Set(names)]);
      const actor = await repo.fallbackActor();
      const out = [];
      for (const { type, data } of parsed) {
        const { requests, flags } = plan(type, data, facts, tiers, actor, ratingValue);
        // Later events of the batch see what the hub will have been told.
        for (const f of flags) {
          const fact = facts.get(f.cid);
          if (fact && f.on) fact.flags.add(f.flag);
          else if (fact) fact.flags.delete(f.flag);
          await repo.setFlag(f.cid, f.flag, f.on);
        }
        out.push(
          ...requests.map((r) => ({
            member_cid: r.cid,
            about: r.about,
            operation: JSON.stringify(r.op),
            task_id: r.taskId,
            error: r.error,
          })),
        );
      }
      await repo.add(out, now);
      await repo.advance(last);
      await queueCpt(w, parsed, now);
      return true;
    });
  }

  /** Sends the next due request that may go. True when there was one. */
  async deliverNext(now: number, signal: AbortSignal): Promise<boolean> {
    const next = await this.o.repos.divisionRequests.nextDue(now);
    if (!next) return false;
    const op = JSON.parse(next.operation) as DivisionOperation;
    // A create is unknown from when it leaves until its answer is recorded: should the process die
    // between, the next attempt matches the hub's list first instead of making a second record.
    if (next.unknown === 0 && MATCHED.has(op.op)) await this.o.writer.write((w) => w.repos.divisionRequests.markUnknown(next.id));
    const file = op.op === 'cpt' ? await this.o.repos.divisionCpt.file(op.examinationId) : undefined;
    const outcome = await this.o.driver.send(op, { unknown: next.unknown === 1, signal, file });
    const at = this.o.clock();
    await this.o.writer.write(async (w) => {
      const repo = w.repos.divisionRequests;
      const row = await repo.locked(next.id);
      // Dismissed or retried by an operator meanwhile: theirs is the last word.
      if (!row || row.state !== 'pending' || row.attempts !== next.attempts) return;
      const attempts = row.attempts + 1;
      if (outcome.result === 'sent')
        await repo.settle(row.id, { state: 'sent', attempts, error: null, sent_at: at, unknown: 0 }, row.task_id);
      else if (outcome.result === 'refused') await repo.settle(row.id, { state: 'refused', attempts, error: outcome.message }, row.task_id);
      else
        await repo.settle(
          row.id,
          {
            state: 'pending',
            attempts,
            error: outcome.error,
            next_at: at + retryDelayMs(this.o.config.retryBaseMs, attempts),
            unknown: outcome.unknown || row.unknown === 1 ? 1 : 0,
          },
          null,
        );
    });
    for (const l of this.listeners) l(outcome.result);
    return true;
  }

  async status(): Promise<{ pending: DivisionRequestView[]; refused: DivisionRequestView[] }> {
    const rows = await this.o.repos.divisionRequests.open();
    const view = (r: DivisionRequestRow): DivisionRequestView => {
      const op = JSON.parse(r.operation) as DivisionOperation | null;
      const { method, path } = op ? this.o.driver.describe(op) : { method: '-', path: '-' };
      return {
        id: r.id,
        method,
        path,
        about: r.about,
        attempts: r.attempts,
        ...(r.error !== null ? { error: r.error } : {}),
        created_at: new Date(r.created_at).toISOString(),
      };
    };
    return { pending: rows.filter((r) => r.state === 'pending').map(view), refused: rows.filter((r) => r.state === 'refused').map(view) };
  }

  /** `division:retry`: a refused (or waiting) request is due now. */
  async retry(id: number): Promise<void> {
    await this.o.writer.write(async (w) => {
      const repo = w.repos.divisionRequests;
      const row = await repo.locked(id);
      if (!row || row.state === 'sent') throw new NotFoundError('Division request');
      if (row.operation === 'null') throw new NotFoundError('Division request that can be sent');
      await repo.settle(id, { state: 'pending', attempts: row.attempts, next_at: w.at, error: row.error }, row.task_id);
    });
  }

  /** The hub's message of the oldest refused request about each thing ("endorsement:12"), for the staff pages. */
  async refusedAbout(abouts: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const r of await this.o.repos.divisionRequests.refusedAbout(abouts))
      if (!out.has(r.about)) out.set(r.about, r.error ?? 'no reason given');
    return out;
  }

  /**
   * "Send again" on the staff pages, beside a task or an endorsement: its oldest refused request is
   * due now (none refused: 409).
   */
  async retryRefused(of: { task: number } | { about: string }): Promise<void> {
    await this.o.writer.write(async (w) => {
      const row = await w.repos.divisionRequests.refusedLocked(of);
      if (!row)
        throw new ConflictError(`The division's hub has refused nothing ${'task' in of ? 'of this task' : 'about this'} (any longer).`);
      await w.repos.divisionRequests.settle(
        row.id,
        { state: 'pending', attempts: row.attempts, next_at: w.at, error: row.error },
        row.task_id,
      );
    });
  }

  /** `division:dismiss`: the request is dropped, and what it held back may go. */
  async dismiss(id: number): Promise<void> {
    await this.o.writer.write(async (w) => {
      const repo = w.repos.divisionRequests;
      const row = await repo.locked(id);
      if (!row || row.state === 'sent') throw new NotFoundError('Division request');
      await repo.remove(id);
    });
  }
}

function memberOf(data: Record<string, unknown>): number[] {
  const role = data['role'] as { user_id?: number } | undefined;
  const e = data['endorsement'] as { user_id?: number } | undefined;
  return [role?.user_id, e?.user_id].filter((x): x is number => typeof x === 'number');
}

/** A role event's acting member (`acting_cid`), from the audit entry of its change: the hub's user_cid. */
async function nameRoleActors(
  repo: Pick<Write['repos']['divisionRequests'], 'roleActors'>,
  rows: ReadonlyArray<{ type: string; created_at: number }>,
  parsed: ReadonlyArray<{ type: string; data: Record<string, unknown> }>,
): Promise<void> {
  const key = (i: number) => {
    const role = parsed[i]!.data['role'] as { user_id: number };
    return { action: rows[i]!.type, target: `user:${role.user_id}`, at: rows[i]!.created_at };
  };
  const roles = parsed.flatMap((p, i) => (p.type.startsWith('role.') ? [i] : []));
  const actors = await repo.roleActors(roles.map(key));
  for (const i of roles) {
    const k = key(i);
    const cid = actors.get(`${k.action}|${k.target}|${k.at}`);
    if (cid !== undefined) parsed[i]!.data['acting_cid'] = cid;
  }
}
