// Endorsements staff issue, shorten and revoke (contract §17): one write each, with its audit entry
// and event. A member acting on the pages is held to what their roles allow (src/features/roles/domain.ts);
// API keys and the CLI are trusted integrations, as for bookings.
import type { AuditActor } from '../audit/domain/index.js';
import { changedFields, endorsementTarget } from '../audit/domain/index.js';
import { type EndorsementRequest, isActiveEndorsement, isIssuedType, type IssuedType, issueProblems, newEndProblem } from './domain.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { authorize } from '../roles/domain.js';
import { presentEndorsement } from './endorsements.presenter.js';
import type { EndorsementFilter, EndorsementRecord } from './endorsements.repository.js';
import type { Endorsement } from './endorsements.schema.js';
import type { Write } from '../../app/deps.js';
import { type EndorsementNoticeKind, mailEndorsementChanges, mailSoloWarnings, SOLO_WARNING_MS } from './notices.js';
import type { Deps } from '../../app/deps.js';

const typeName = (type: string) => `${type[0]!.toUpperCase()}${type.slice(1)}`;
const described = (e: EndorsementRecord) =>
  `${typeName(e.type)} endorsement ${e.id}${e.rating ? ` (${e.rating})` : ''}${e.positions.length ? ` on ${e.positions.join(', ')}` : ''}`;

/** Whether the student passed a rating's theory exam on the division's hub (contract §22): throws the 422 or 502 when not. */
export interface TheoryExamCheck {
  requireTheoryExam(cid: number, rating: number, field: string): Promise<void>;
}

export class EndorsementsService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock' | 'config'> & { hub: TheoryExamCheck | null }) {}

  async list(filter: Omit<EndorsementFilter, 'now'>): Promise<Endorsement[]> {
    return (await this.deps.repos.endorsements.list({ ...filter, now: this.deps.clock() })).map(presentEndorsement);
  }

  async find(id: number): Promise<Endorsement> {
    const e = isRowId(id) ? await this.deps.repos.endorsements.find(id) : undefined;
    if (!e) throw new NotFoundError('Endorsement');
    return presentEndorsement(e);
  }

  /** Issues an endorsement: the rules of its type, then no conflicting one, under a lock on the user. */
  async issue(userId: number, req: EndorsementRequest, actor: AuditActor): Promise<Endorsement> {
    const hubSays = await this.askHub(userId, req);
    return this.deps.writer.write(async (w) => {
      const repos = w.repos;
      if (!(await repos.endorsements.lockUser(userId))) throw new ValidationError({ user_id: [`There is no user with CID ${userId}.`] });
      const facts = await repos.endorsements.issueFacts(userId);
      const areaIds = new Map(facts.areas.map((a) => [a.name.toLowerCase(), a]));
      const positionIds = new Map(facts.positions.map((p) => [p.callsign, p]));
      // Names as the division spells them; positions by callsign, upper-cased.
      const asked: EndorsementRequest = {
        ...req,
        areas: req.areas.map((a) => areaIds.get(a.toLowerCase())?.name ?? a),
        positions: req.positions.map((p) => p.toUpperCase()),
      };
      const errors = issueProblems(asked, {
        now: w.at,
        areas: new Set(facts.areas.map((a) => a.name)),
        positions: new Map(facts.positions.map((p) => [p.callsign, p.area])),
        facilityNames: new Set(facts.positions.flatMap((p) => (p.required_facility ? [p.required_facility] : []))),
        trainingAreas: new Set(facts.trainingAreas),
      });
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const type = asked.type as IssuedType;
      const areaList = asked.areas.map((a) => areaIds.get(a.toLowerCase())!.id);
      const positionList = asked.positions.map((c) => positionIds.get(c)!);
      // A facility endorsement belongs to the areas of the positions requiring it.
      const scope =
        type === 'facility'
          ? [
              ...new Set(
                facts.positions
                  .filter((p) => p.required_facility === asked.rating && p.area !== null)
                  .map((p) => areaIds.get(p.area!.toLowerCase())!.id),
              ),
            ]
          : type === 'solo'
            ? positionList.map((p) => areaIds.get(p.area!.toLowerCase())!.id)
            : areaList;
      await this.permit(w, actor, type, scope, userId);

      const unended = await repos.endorsements.unended(userId, type, w.at);
      const blocking = unended.find((e) => type !== 'facility' || e.rating === asked.rating);
      if (blocking) {
        const record = (await repos.endorsements.find(blocking.id))!;
        throw new ConflictError(`User ${userId} already holds ${described(record)}; revoke it first.`, {
          endorsement: presentEndorsement(record),
        });
      }
      if (await repos.endorsements.startingAt(userId, type, asked.valid_from)) {
        throw new ConflictError(`User ${userId} already has a ${type} endorsement starting at that instant.`);
      }
      // The hub's answer counts after the rules, the viewer's roles and conflicts have had their say.
      if (hubSays) throw hubSays;
      const id = await repos.endorsements.insert(
        {
          user_id: userId,
          type,
          rating: type === 'solo' ? null : asked.rating,
          valid_from: asked.valid_from,
          valid_to: asked.valid_to,
          issued_by: actor.kind === 'member' ? actor.cid : null,
          created_at: w.at,
        },
        areaList,
        positionList.map((p) => p.id),
      );
      return this.recorded(w, actor, id, 'endorsement.created', null);
    });
  }

  /**
   * A solo needs the hub to say the student passed the theory exam of their training's highest rating
   * (contract §22): asked before the write, as no transaction waits on another service. The refusal
   * (422) or failure (502) is returned, to be thrown in the write after the rules.
   */
  private async askHub(userId: number, req: EndorsementRequest): Promise<Error | null> {
    const hub = this.deps.hub;
    if (!hub || req.type.trim() !== 'solo' || req.positions.length !== 1 || !isRowId(userId)) return null;
    const rating = await this.deps.repos.endorsements.soloTrainingRating(userId, req.positions[0]!.toUpperCase());
    // No open training covering the position: the rules refuse the solo without the hub.
    if (rating === null) return null;
    return hub.requireTheoryExam(userId, rating, 'positions').then(
      () => null,
      (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
    );
  }

  /** Moves its end (a solo only earlier). */
  setEnd(id: number, validTo: number | null, actor: AuditActor): Promise<Endorsement> {
    return this.change(id, actor, 'endorsement.updated', async (w, e) => {
      if (e.revoked === 1 || !isActiveOrUpcoming(e, w.at)) throw new ConflictError(`${described(e)} has ended; it cannot be changed.`);
      const problem = newEndProblem(e, validTo, w.at);
      if (problem) throw new ValidationError({ valid_to: [problem] });
      await w.repos.endorsements.setEnd(id, validTo);
    });
  }

  /** Ends it now. */
  revoke(id: number, actor: AuditActor): Promise<Endorsement> {
    return this.change(id, actor, 'endorsement.revoked', async (w, e) => {
      if (e.revoked === 1) throw new ConflictError(`${described(e)} is already revoked.`);
      if (!isActiveOrUpcoming(e, w.at)) throw new ConflictError(`${described(e)} has already ended.`);
      if (e.type === 's1') throw new ValidationError({ type: ['S1 endorsements are kept for history and cannot be changed.'] });
      await w.repos.endorsements.revoke(id, w.at);
    });
  }

  private async change(
    id: number,
    actor: AuditActor,
    action: 'endorsement.updated' | 'endorsement.revoked',
    apply: (w: Write, e: EndorsementRecord) => Promise<void>,
  ): Promise<Endorsement> {
    return this.deps.writer.write(async (w) => {
      // The user's lock first, then the row as it is under it: a revoke or change that committed while
      // this one waited is seen (an endorsement never changes user, so the first read only names the lock).
      const owner = isRowId(id) ? await w.repos.endorsements.find(id) : undefined;
      if (!owner) throw new NotFoundError('Endorsement');
      await w.repos.endorsements.lockUser(owner.user_id);
      const before = (await w.repos.endorsements.find(id))!;
      const areas = await w.repos.endorsements.scopeOf(id);
      if (isIssuedType(before.type)) await this.permit(w, actor, before.type, areas, before.user_id);
      await apply(w, before);
      return this.recorded(w, actor, id, action, before);
    });
  }

  private async permit(w: Write, actor: AuditActor, type: IssuedType, areas: number[], student: number): Promise<void> {
    if (actor.kind !== 'member') return;
    authorize(await w.repos.roles.staffMember(actor.cid), 'endorsement', { type, areas, student });
  }

  /** The holder's mail (§24); a solo ending within 3 days of its issue gets its warning now. */
  private async notify(w: Write, action: keyof typeof NOTICE_OF, e: EndorsementRecord): Promise<void> {
    const site = { siteName: this.deps.config.siteName, publicUrl: this.deps.config.publicUrl };
    await mailEndorsementChanges(w, site, [{ kind: NOTICE_OF[action], e }]);
    if (action === 'endorsement.created' && e.type === 'solo' && e.valid_to !== null && e.valid_to <= w.at + SOLO_WARNING_MS) {
      await mailSoloWarnings(w, site, await w.repos.soloWarnings.due(w.at, w.at + SOLO_WARNING_MS, 1, [e.id]));
    }
  }

  /** Reads the endorsement as committed, and records the change's audit entry and event. */
  private async recorded(
    w: Write,
    actor: AuditActor,
    id: number,
    action: 'endorsement.created' | 'endorsement.updated' | 'endorsement.revoked',
    before: EndorsementRecord | null,
  ): Promise<Endorsement> {
    const record = (await w.repos.endorsements.find(id))!;
    const after = presentEndorsement(record);
    await this.notify(w, action, record);
    await w.audit(actor, [{ action, target: endorsementTarget(id), ...changedFields(before && presentEndorsement(before), after) }]);
    await w.publish([{ type: action, data: { endorsement: after } }]);
    return after;
  }
}

const NOTICE_OF: Record<'endorsement.created' | 'endorsement.updated' | 'endorsement.revoked', EndorsementNoticeKind> = {
  'endorsement.created': 'issued',
  'endorsement.updated': 'shortened',
  'endorsement.revoked': 'revoked',
};

/** Ids are 32-bit in both databases: a larger one names nothing (PostgreSQL would refuse to compare it). */
const isRowId = (id: number) => Number.isInteger(id) && id >= 1 && id <= 2_147_483_647;

/** Not ended yet: active now, or starting later. */
function isActiveOrUpcoming(e: EndorsementRecord, now: number): boolean {
  return isActiveEndorsement(e, now) || (e.revoked === 0 && e.valid_from > now);
}
