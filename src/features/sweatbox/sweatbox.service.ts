// The sweatbox (contract §23): anyone holding a role books the training server's positions; the
// booker or a Moderator/Administrator of the position's area changes or deletes a session. Sessions
// are not bookings: no event, no network push, never on a public page. Overlaps are refused by the
// database (0031_sweatbox); the refusal names the session in the way.
import type { AuditActor } from '../audit/domain/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { authorize } from '../roles/domain.js';
import { ymdHis } from '../../core/domain/time.js';
import { KEEP_PAST_MS, parseSession, type SessionFields, type SessionInput } from './domain.js';
import { isSweatboxOverlap, type SessionRow } from './sweatbox.repository.js';
import type { Deps, Write } from '../../app/deps.js';

const target = (id: number) => `sweatbox_session:${id}`;
const audited = (s: { callsign: string; time_start: number; time_end: number; notes: string }) => ({
  callsign: s.callsign,
  time_start: ymdHis(s.time_start),
  time_end: ymdHis(s.time_end),
  notes: s.notes,
});
const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

export class SweatboxService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock'>) {}

  /** Sessions ending after `from` and starting before `to`. */
  list(from: number, to: number): Promise<SessionRow[]> {
    return this.deps.repos.sweatbox.list(from, to);
  }

  /** The page's sessions: those not yet over, and today's. */
  upcoming(): Promise<SessionRow[]> {
    const now = this.deps.clock();
    return this.deps.repos.sweatbox.list(now - (now % 86_400_000), Number.MAX_SAFE_INTEGER);
  }

  async find(id: number): Promise<SessionRow | null> {
    return (validId(id) ? await this.deps.repos.sweatbox.find(id) : undefined) ?? null;
  }

  /** The positions a session may be booked on: every callsign of the division. */
  callsigns(): Promise<string[]> {
    return this.deps.repos.positions.callsigns();
  }

  async create(fields: SessionFields, actor: Extract<AuditActor, { kind: 'member' }>): Promise<number> {
    const input = checked(fields);
    return this.refusingOverlap(input, 0, () =>
      this.deps.writer.write(async (w) => {
        const position = await positionOf(w, input);
        const id = await w.repos.sweatbox.add({
          position_id: position.id,
          user_id: actor.cid,
          time_start: input.period.start,
          time_end: input.period.end,
          notes: input.notes,
          at: w.at,
        });
        const after = { callsign: position.callsign, time_start: input.period.start, time_end: input.period.end, notes: input.notes };
        await w.audit(actor, [{ action: 'sweatbox_session.created', target: target(id), before: null, after: audited(after) }]);
        return id;
      }),
    );
  }

  async update(id: number, fields: SessionFields, actor: Extract<AuditActor, { kind: 'member' }>): Promise<void> {
    const input = checked(fields);
    await this.refusingOverlap(input, id, () =>
      this.deps.writer.write(async (w) => {
        const before = await this.authorized(w, id, actor);
        const position = await positionOf(w, input);
        if (position.area_id !== before.area_id)
          authorize(await w.repos.roles.staffMember(actor.cid), 'sweatbox', { area: position.area_id, booker: before.user_id });
        const after = { callsign: position.callsign, time_start: input.period.start, time_end: input.period.end, notes: input.notes };
        await w.repos.sweatbox.update(id, {
          position_id: position.id,
          time_start: after.time_start,
          time_end: after.time_end,
          notes: input.notes,
          at: w.at,
        });
        await w.audit(actor, [{ action: 'sweatbox_session.updated', target: target(id), before: audited(before), after: audited(after) }]);
      }),
    );
  }

  remove(id: number, actor: AuditActor): Promise<void> {
    return this.deps.writer.write(async (w) => {
      const before = await this.authorized(w, id, actor);
      await w.repos.sweatbox.remove(id);
      await w.audit(actor, [{ action: 'sweatbox_session.deleted', target: target(id), before: audited(before), after: null }]);
    });
  }

  /** Removes the sessions that ended more than 30 days ago (the cleanup worker). */
  prune(now: number): Promise<number> {
    return this.deps.writer.write((w) => w.repos.sweatbox.prune(now - KEEP_PAST_MS));
  }

  private async authorized(w: Write, id: number, actor: AuditActor): Promise<SessionRow> {
    const s = validId(id) ? await w.repos.sweatbox.find(id) : undefined;
    if (!s) throw new NotFoundError('Sweatbox session');
    if (actor.kind === 'member') authorize(await w.repos.roles.staffMember(actor.cid), 'sweatbox', { area: s.area_id, booker: s.user_id });
    return s;
  }

  /** Runs the write; the database's overlap refusal becomes a 409 naming the session in the way. */
  private async refusingOverlap<T>(input: SessionInput, except: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (!isSweatboxOverlap(err)) throw err;
      const position = await this.deps.repos.positions.findByCallsign(input.callsign);
      const [other] = position ? await this.deps.repos.sweatbox.overlapping(position.id, input.period.start, input.period.end, except) : [];
      throw new ConflictError(
        other
          ? `${other.callsign} is already booked in the sweatbox from ${ymdHis(other.time_start).slice(0, 16)} to ${ymdHis(other.time_end).slice(0, 16)} UTC by ${other.booker} (session ${other.id}).`
          : `${input.callsign} is already booked in the sweatbox at that time.`,
        other ? { conflicts: [other.id] } : {},
      );
    }
  }
}

function checked(fields: SessionFields): SessionInput {
  const parsed = parseSession(fields);
  if (!parsed.ok) throw new ValidationError(parsed.errors);
  return parsed.session;
}

async function positionOf(w: Write, input: SessionInput) {
  const position = await w.repos.positions.findByCallsign(input.callsign);
  if (!position) throw new ValidationError({ position: [`${input.callsign} is not a position of the division.`] });
  return position;
}
