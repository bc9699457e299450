// One-time links (contract §20): a Moderator or Administrator of a training's area lets someone who
// is not its mentor write one report of it (anyone holding a staff role) or grade one examination
// (one of its examiners). The token is shown once and stored as a hash; the link is used up by the
// save that uses it, in that save's transaction (a refused form leaves it unused), and lapses after
// seven days.
import { createHash, randomBytes } from 'node:crypto';
import { ForbiddenError, ValidationError } from '../../core/domain/errors.js';
import type { AuditActor } from '../audit/domain/index.js';
import { authorize, holdsAnyRole } from '../roles/domain.js';
import { recordTrainingChanges } from './changes.js';
import type { ReportInput, TrainingRecordsService } from './records.service.js';
import type { LinkRow } from './links.repository.js';
import type { TrainingDetail } from './trainings.schema.js';
import type { TrainingsService } from './trainings.service.js';
import type { TrainingRecord } from './trainings.repository.js';
import type { ReadRepositories } from '../../app/repositories.js';
import type { Deps, Write } from '../../app/deps.js';

export const LINK_PREFIX = 'slk_';
const LINK_PATTERN = /^slk_[A-Za-z0-9_-]{32}$/;
export const LINK_LIFETIME_MS = 7 * 86_400_000;

export type LinkKind = 'report' | 'examination';

/** A link that is unknown, used or expired: its page is 410. */
export class LinkGoneError extends Error {
  constructor(readonly reason: 'unknown' | 'used' | 'expired') {
    super(`This link is ${reason === 'unknown' ? 'not known' : reason === 'used' ? 'used up' : 'expired'}.`);
  }
}

/** A signed-in member, as the audit names them. */
export type MemberActor = Extract<AuditActor, { kind: 'member' }>;

/** What the holder of a link sees: the training's summary and published reports, and the one thing they may do. */
export interface LinkView {
  kind: LinkKind;
  training: TrainingDetail;
  /** CID -> name of the student, mentors and report authors. */
  names: Map<number, string>;
  /** The callsigns of the training area's positions (the report's position picker). */
  positions: string[];
  expiresAt: number;
}

export interface CreatedLink {
  url: string;
  expiresAt: number;
  kind: LinkKind;
}

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

export class TrainingLinksService {
  constructor(
    private readonly deps: Deps<'writer' | 'repos' | 'clock' | 'config'> & { trainings: TrainingsService; records: TrainingRecordsService },
  ) {}

  /** POST /staff/trainings/{id}/links: the link's address, shown once. */
  create(trainingId: number, input: { kind: string; examination_id?: number | undefined }, actor: MemberActor): Promise<CreatedLink> {
    const cid = actor.cid;
    return this.deps.writer.write(async (w) => {
      const t = await this.deps.trainings.locked(w, trainingId);
      authorize(await w.repos.roles.staffMember(cid), 'link', { area: t.area_id });
      // Grading through a link comes with planned examinations; until then a link is for a report.
      if (input.kind !== 'report') throw new ValidationError({ kind: ['A one-time link is for writing one report.'] });
      const token = `${LINK_PREFIX}${randomBytes(24).toString('base64url')}`;
      const expiresAt = w.at + LINK_LIFETIME_MS;
      const link = await w.repos.trainingLinks.add({
        training_id: t.id,
        kind: input.kind,
        examination_id: null,
        token_hash: hashOf(token),
        created_by: cid,
        created_at: w.at,
        expires_at: expiresAt,
      });
      await this.record(w, t, actor, 'link', { kind: input.kind, link: link.id });
      return { url: `${this.deps.config.publicUrl}/training/link/${token}`, expiresAt, kind: input.kind };
    });
  }

  /** GET /training/link/{token}: what the signed-in member may see and do through it. */
  async open(token: string, cid: number): Promise<LinkView> {
    const link = await this.usable(this.deps.repos, token, cid, this.deps.clock());
    const training = await this.deps.trainings.detail(link.training_id, false);
    const names = await this.deps.repos.staff.names([
      training.user_id,
      ...training.mentors,
      ...training.reports.flatMap((r) => (r.author_id ? [r.author_id] : [])),
    ]);
    const record = await this.deps.repos.trainings.find(link.training_id);
    const positions = (await this.deps.repos.positions.list()).filter((p) => p.area_id === record?.area_id).map((p) => p.callsign);
    return { kind: link.kind, training, names, positions, expiresAt: link.expires_at };
  }

  /** POST /training/link/{token} of a report link: the one report, which uses the link up. */
  writeReport(token: string, actor: MemberActor, input: Omit<ReportInput, 'draft'>): Promise<number> {
    const cid = actor.cid;
    return this.deps.writer.write(async (w) => {
      const link = await this.usable(w.repos, token, cid, w.at);
      const t = await this.deps.trainings.locked(w, link.training_id);
      // The report first: a refused form throws here, before the link is used.
      await this.deps.records.writeReport(w, t, { ...input, draft: false }, actor);
      if (!(await w.repos.trainingLinks.useUp(link.id, w.at, cid))) throw new LinkGoneError('used');
      await this.record(w, t, actor, 'link_used', { kind: link.kind, link: link.id });
      return t.id;
    });
  }

  /**
   * The link of a token if `cid` may still use it at `at`; else why not. Only report links are made
   * (grading through a link comes with planned examinations): anyone holding a staff role uses one.
   */
  private async usable(repos: Pick<ReadRepositories, 'trainingLinks' | 'roles'>, token: string, cid: number, at: number): Promise<LinkRow> {
    const link = LINK_PATTERN.test(token) ? await repos.trainingLinks.byHash(hashOf(token)) : null;
    if (!link || link.kind !== 'report') throw new LinkGoneError('unknown');
    if (link.used_at !== null) throw new LinkGoneError('used');
    if (link.expires_at <= at) throw new LinkGoneError('expired');
    if (!holdsAnyRole(await repos.roles.staffMember(cid)))
      throw new ForbiddenError('This link is for a member holding a staff role (Administrator, Moderator, Mentor or Buddy).');
    return link;
  }

  /** The timeline entry and audit entry of making or using a link (never its token). */
  private async record(
    w: Write,
    t: TrainingRecord,
    actor: AuditActor,
    action: 'link' | 'link_used',
    detail: Record<string, unknown>,
  ): Promise<void> {
    await recordTrainingChanges(w, this.deps.config, [
      { actor, before: t, after: t, timeline: [{ action, detail }], event: null, mail: null, record: detail },
    ]);
  }
}
