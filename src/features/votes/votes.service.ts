// Votes (contract §23): a division-wide Administrator creates them; each eligible member casts one
// secret ballot (who voted and the count per option are kept apart, no finer time than the day);
// the database refuses a second ballot; the closing time is checked inside the ballot's own
// transaction; results show to the eligible after the close, turnout to Administrators meanwhile.
import type { AuditActor } from '../audit/domain/index.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { isoMicros } from '../../core/domain/time.js';
import { membershipOf } from '../members/domain/membership.js';
import { authorize } from '../roles/domain.js';
import { type Eligibility, mayVote, parseVote, type VoteFields } from './domain.js';
import { isSecondBallot, type OptionRow, type VoteRow } from './votes.repository.js';
import type { Deps, Write } from '../../app/deps.js';

export interface VoteView {
  vote: VoteRow;
  options: OptionRow[];
  open: boolean;
}

export interface MemberVote extends VoteView {
  voted: boolean;
  /** May cast a ballot now (open, eligible, not yet voted); else why not when it is open. */
  eligible: boolean;
  reason: string | null;
  /** Results are shown (closed and eligible, or a division-wide Administrator). */
  results: boolean;
  admin: boolean;
}

/** The member's second ballot, refused by the database: the 409 page "you have already voted". */
export class AlreadyVotedError extends ConflictError {
  constructor() {
    super('You have already voted in this vote.');
  }
}

const target = (id: number) => `vote:${id}`;
const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;
const audited = (v: { question: string; options: readonly string[]; closesAt: number; eligibility: Eligibility }) => ({
  question: v.question,
  options: v.options,
  closes_at: isoMicros(v.closesAt),
  eligibility: v.eligibility,
});

export class VotesService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock' | 'config'>) {}

  /** Every vote with its options (the staff page: counts only shown once closed, turnout always). */
  async all(): Promise<VoteView[]> {
    const votes = await this.deps.repos.votes.list();
    return this.withOptions(votes);
  }

  /** The votes the member may see (those they may vote in, or every vote for a division-wide Administrator), open first. */
  async forMember(cid: number): Promise<MemberVote[]> {
    const votes = await this.deps.repos.votes.list();
    const seen = await this.judged(cid, await this.withOptions(votes));
    return seen
      .filter((v) => v.admin || v.eligible || v.voted || (v.reason === null && !v.open))
      .sort((a, b) => Number(b.open) - Number(a.open));
  }

  /** The member's open votes they have not voted in yet (their home page). */
  async openFor(cid: number): Promise<MemberVote[]> {
    return (await this.forMember(cid)).filter((v) => v.open && v.eligible);
  }

  async one(id: number, cid: number): Promise<MemberVote | null> {
    const vote = validId(id) ? await this.deps.repos.votes.find(id) : undefined;
    if (!vote) return null;
    return (await this.judged(cid, await this.withOptions([vote])))[0]!;
  }

  async create(fields: VoteFields, actor: Extract<AuditActor, { kind: 'member' }>): Promise<number> {
    return this.deps.writer.write(async (w) => {
      authorize(await w.repos.roles.staffMember(actor.cid), 'votes', {});
      const v = checked(fields, w.at);
      const id = await w.repos.votes.add(
        { question: v.question, eligibility: v.eligibility, closes_at: v.closesAt, created_by: actor.cid, at: w.at },
        v.options,
      );
      await w.audit(actor, [{ action: 'vote.created', target: target(id), before: null, after: audited(v) }]);
      return id;
    });
  }

  async update(id: number, fields: VoteFields, actor: Extract<AuditActor, { kind: 'member' }>): Promise<void> {
    await this.deps.writer.write(async (w) => {
      const before = await this.unvoted(w, id, actor, 'changed');
      const v = checked(fields, w.at);
      await w.repos.votes.update(id, { question: v.question, eligibility: v.eligibility, closes_at: v.closesAt, at: w.at }, v.options);
      await w.audit(actor, [{ action: 'vote.updated', target: target(id), before, after: audited(v) }]);
    });
  }

  async remove(id: number, actor: Extract<AuditActor, { kind: 'member' }>): Promise<void> {
    await this.deps.writer.write(async (w) => {
      const before = await this.unvoted(w, id, actor, 'deleted');
      await w.repos.votes.remove(id);
      await w.audit(actor, [{ action: 'vote.deleted', target: target(id), before, after: null }]);
    });
  }

  /**
   * One ballot. Nothing of it names the option beside the member: vote_voters gets (vote, member,
   * day) and the option's count one more; no audit entry, event or log line is written.
   */
  async cast(id: number, optionId: number, cid: number): Promise<void> {
    try {
      await this.deps.writer.write(async (w) => {
        const vote = validId(id) ? await w.repos.votes.lock(id, 'ballot') : undefined;
        if (!vote) throw new NotFoundError('Vote');
        // Inside the ballot's transaction, with the vote locked against its closing.
        if (vote.closes_at <= w.at) throw new ConflictError('This vote has closed.');
        const decision = mayVote(vote.eligibility, membershipOf(this.deps.config), await w.repos.votes.voterFacts(cid));
        if (!decision.ok) throw new ForbiddenError(decision.reason);
        await w.repos.votes.addVoter(id, cid, new Date(w.at).toISOString().slice(0, 10));
        if (!(await w.repos.votes.count(id, optionId))) throw new ValidationError({ option: ['Choose one of the options.'] });
      });
    } catch (err) {
      if (isSecondBallot(err)) throw new AlreadyVotedError();
      throw err;
    }
  }

  /** Closes the votes past their time, once each (the votes-closing worker): vote.closed with the counts. */
  closeDue(): Promise<number> {
    return this.deps.writer.write(async (w) => {
      const due = await w.repos.votes.dueToClose(w.at);
      if (due.length === 0) return 0;
      const options = await w.repos.votes.options(due.map((v) => v.id));
      await w.publish(
        due.map((v) => {
          const counts = options.filter((o) => o.vote_id === v.id).map((o) => ({ option: o.text, count: o.count }));
          return {
            type: 'vote.closed' as const,
            data: {
              vote: {
                id: v.id,
                question: v.question,
                closes_at: isoMicros(v.closes_at),
                ballots: counts.reduce((n, c) => n + c.count, 0),
                counts,
              },
            },
          };
        }),
      );
      await w.repos.votes.markClosed(
        due.map((v) => v.id),
        w.at,
      );
      return due.length;
    });
  }

  private async withOptions(votes: VoteRow[]): Promise<VoteView[]> {
    const options = await this.deps.repos.votes.options(votes.map((v) => v.id));
    const now = this.deps.clock();
    return votes.map((vote) => ({ vote, options: options.filter((o) => o.vote_id === vote.id), open: vote.closes_at > now }));
  }

  private async judged(cid: number, views: VoteView[]): Promise<MemberVote[]> {
    const [facts, staff, voted] = await Promise.all([
      this.deps.repos.votes.voterFacts(cid),
      this.deps.repos.roles.staffMember(cid),
      this.deps.repos.votes.votedIn(
        cid,
        views.map((v) => v.vote.id),
      ),
    ]);
    const membership = membershipOf(this.deps.config);
    return views.map((v) => {
      const decision = mayVote(v.vote.eligibility, membership, facts);
      const hasVoted = voted.has(v.vote.id);
      return {
        ...v,
        voted: hasVoted,
        eligible: decision.ok && v.open && !hasVoted,
        reason: decision.ok ? null : decision.reason,
        results: !v.open && (decision.ok || hasVoted || staff.divisionAdmin),
        admin: staff.divisionAdmin,
      };
    });
  }

  /** The vote locked for a change, refused once a ballot is cast; its audited form. */
  private async unvoted(w: Write, id: number, actor: Extract<AuditActor, { kind: 'member' }>, what: string) {
    authorize(await w.repos.roles.staffMember(actor.cid), 'votes', {});
    const locked = validId(id) ? await w.repos.votes.lock(id, 'change') : undefined;
    const vote = locked ? await w.repos.votes.find(id) : undefined;
    if (!vote) throw new NotFoundError('Vote');
    if (vote.ballots > 0) throw new ConflictError(`A vote cannot be ${what} once a ballot has been cast.`);
    const options = (await w.repos.votes.options([id])).map((o) => o.text);
    return audited({ question: vote.question, options, closesAt: vote.closes_at, eligibility: vote.eligibility });
  }
}

function checked(fields: VoteFields, now: number) {
  const parsed = parseVote(fields, now);
  if (!parsed.ok) throw new ValidationError(parsed.errors);
  return parsed.vote;
}
