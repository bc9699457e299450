// One-time links (contract §20): a Moderator or Administrator of a training's area lets someone who
// is not its mentor write one report of it (anyone holding a staff role) or grade one examination
// (one of its examiners). The token is shown once and stored as a hash; the link is used up by the
// save that uses it, in that save's transaction (a refused form leaves it unused), and lapses after
// seven days.
import { createHash, randomBytes } from 'node:crypto';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import type { AuditActor } from '../audit/domain/index.js';
import { authorize, holdsAnyRole } from '../roles/domain.js';
import { recordTrainingChanges } from './changes.js';
import type { ReportInput, TrainingRecordsService } from './records.service.js';
import type { TrainingExaminationsService } from './examinations.service.js';
import type { TrainingAttachmentsService, UploadedFile } from './attachments.service.js';
import type { Attachment } from './attachments.schema.js';
import { presentAttachment } from './attachments.presenter.js';
import type { ExaminationRow } from './examinations.repository.js';
import { EXAMINATION_RESULTS } from './domain.js';
import { andList } from './examinations.domain.js';
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
  constructor(readonly reason: 'unknown' | 'used' | 'expired' | 'graded') {
    super(
      reason === 'graded'
        ? 'This examination is graded already, so its link cannot be used.'
        : `This link is ${reason === 'unknown' ? 'not known' : reason === 'used' ? 'used up' : 'expired'}.`,
    );
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
  /** The examination a grading link is for (its examiners named in `names`). */
  examination: ExaminationRow | null;
  /** A grading link's files of its examination, staff-only ones too (the holder is its examiner). */
  files: Attachment[];
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
    private readonly deps: Deps<'writer' | 'repos' | 'clock' | 'config'> & {
      trainings: TrainingsService;
      records: TrainingRecordsService;
      examinations: TrainingExaminationsService;
      attachments: TrainingAttachmentsService;
    },
  ) {}

  /** POST /staff/trainings/{id}/links: the link's address, shown once. */
  create(trainingId: number, input: { kind: string; examination_id?: number | undefined }, actor: MemberActor): Promise<CreatedLink> {
    const cid = actor.cid;
    return this.deps.writer.write(async (w) => {
      const t = await this.deps.trainings.locked(w, trainingId);
      authorize(await w.repos.roles.staffMember(cid), 'link', { area: t.area_id });
      if (input.kind !== 'report' && input.kind !== 'examination')
        throw new ValidationError({ kind: ['A one-time link is for writing one report or grading one examination.'] });
      const examinationId = input.kind === 'examination' ? await this.plannedOf(w, t.id, input.examination_id) : null;
      const token = `${LINK_PREFIX}${randomBytes(24).toString('base64url')}`;
      const expiresAt = w.at + LINK_LIFETIME_MS;
      const link = await w.repos.trainingLinks.add({
        training_id: t.id,
        kind: input.kind,
        examination_id: examinationId,
        token_hash: hashOf(token),
        created_by: cid,
        created_at: w.at,
        expires_at: expiresAt,
      });
      await this.record(w, t, actor, 'link', { kind: input.kind, link: link.id, ...(examinationId ? { examination: examinationId } : {}) });
      return { url: `${this.deps.config.publicUrl}/training/link/${token}`, expiresAt, kind: input.kind };
    });
  }

  /** GET /training/link/{token}: what the signed-in member may see and do through it. */
  async open(token: string, cid: number): Promise<LinkView> {
    const { link, examination } = await this.usable(this.deps.repos, token, cid, this.deps.clock());
    const training = await this.deps.trainings.detail(link.training_id, false);
    const names = await this.deps.repos.staff.names([
      training.user_id,
      ...training.mentors,
      ...(examination?.examiners ?? []),
      ...training.reports.flatMap((r) => (r.author_id ? [r.author_id] : [])),
    ]);
    const record = await this.deps.repos.trainings.find(link.training_id);
    const positions = (await this.deps.repos.positions.list()).filter((p) => p.area_id === record?.area_id).map((p) => p.callsign);
    const files =
      examination === null
        ? []
        : (await this.deps.repos.attachments.ofTrainings([link.training_id]))
            .filter((a) => a.examination_id === examination.id)
            .map(presentAttachment);
    return { kind: link.kind, training, names, positions, expiresAt: link.expires_at, examination, files };
  }

  /** Which kind of link a token is, if any (the rest is checked by what it is used for). */
  async kindOf(token: string): Promise<LinkKind | null> {
    return LINK_PATTERN.test(token) ? ((await this.deps.repos.trainingLinks.byHash(hashOf(token)))?.kind ?? null) : null;
  }

  /** POST /training/link/{token} of a report link: the one report, which uses the link up. */
  writeReport(token: string, actor: MemberActor, input: Omit<ReportInput, 'draft'>): Promise<number> {
    const cid = actor.cid;
    return this.deps.writer.write(async (w) => {
      const { link } = await this.usable(w.repos, token, cid, w.at, 'report');
      const t = await this.deps.trainings.locked(w, link.training_id);
      // The report first: a refused form throws here, before the link is used.
      await this.deps.records.writeReport(w, t, { ...input, draft: false }, actor);
      if (!(await w.repos.trainingLinks.useUp(link.id, w.at, cid))) throw new LinkGoneError('used');
      await this.record(w, t, actor, 'link_used', { kind: link.kind, link: link.id });
      return t.id;
    });
  }

  /**
   * POST /training/link/{token} of a grading link: the examination's result, which uses the link up.
   * The examiner needs no staff role (the link is the permission), but the eligibility rule of
   * grading holds as for staff: the examiners' endorsements are checked when it is graded.
   */
  gradeExamination(token: string, actor: MemberActor, result: string): Promise<number> {
    const cid = actor.cid;
    return this.deps.writer.write(async (w) => {
      const first = await this.usable(w.repos, token, cid, w.at, 'examination');
      const t = await this.deps.trainings.locked(w, first.link.training_id);
      // Read again under the training's lock: staff may have graded it, or changed its examiners, meanwhile.
      const { link, examination } = await this.usable(w.repos, token, cid, w.at, 'examination');
      if (!(EXAMINATION_RESULTS as readonly string[]).includes(result))
        throw new ValidationError({ result: [`Pick a result: ${EXAMINATION_RESULTS.join(', ')}.`] });
      await this.deps.examinations.changeLocked(w, t, examination!.id, { result }, actor, false);
      if (!(await w.repos.trainingLinks.useUp(link.id, w.at, cid))) throw new LinkGoneError('used');
      await this.record(w, t, actor, 'link_used', { kind: link.kind, link: link.id, examination: examination!.id });
      return t.id;
    });
  }

  /**
   * A file (the examination form, say) added through a grading link to its examination while it is
   * planned; the link stays usable, as grading is what uses it up. The link is the permission.
   */
  async attachToExamination(token: string, actor: MemberActor, file: UploadedFile, hidden: boolean): Promise<Attachment> {
    const type = await this.deps.attachments.typeOf(file);
    return this.deps.writer.write(async (w) => {
      const first = await this.usable(w.repos, token, actor.cid, w.at, 'examination');
      const t = await this.deps.trainings.locked(w, first.link.training_id);
      // Read again under the training's lock, as grading does.
      const { examination } = await this.usable(w.repos, token, actor.cid, w.at, 'examination');
      return this.deps.attachments.attachLocked(w, t, { kind: 'examination', id: examination!.id }, file, type, hidden, actor);
    });
  }

  /** The planned examination of the training a grading link is made for (a graded one: 409). */
  private async plannedOf(w: Write, trainingId: number, id: number | undefined): Promise<number> {
    if (id === undefined) throw new ValidationError({ examination_id: ['Pick the examination the link is for.'] });
    const x = await w.repos.trainingExaminations.find(trainingId, id);
    if (!x) throw new NotFoundError('Examination');
    if (x.result !== null)
      throw new ConflictError(`The examination of ${x.examination_date} is graded already (${x.result}); only a planned one gets a link.`);
    return x.id;
  }

  /**
   * The link of a token if `cid` may still use it at `at`; else why not. A report link is for anyone
   * holding a staff role; a grading link for an examiner of its examination, while it is planned.
   */
  private async usable(
    repos: Pick<ReadRepositories, 'trainingLinks' | 'roles' | 'trainingExaminations' | 'staff'>,
    token: string,
    cid: number,
    at: number,
    kind?: LinkKind,
  ): Promise<{ link: LinkRow; examination: ExaminationRow | null }> {
    const link = LINK_PATTERN.test(token) ? await repos.trainingLinks.byHash(hashOf(token)) : null;
    if (!link || (kind !== undefined && link.kind !== kind)) throw new LinkGoneError('unknown');
    if (link.used_at !== null) throw new LinkGoneError('used');
    if (link.expires_at <= at) throw new LinkGoneError('expired');
    if (link.kind === 'report') {
      if (!holdsAnyRole(await repos.roles.staffMember(cid)))
        throw new ForbiddenError('This link is for a member holding a staff role (Administrator, Moderator, Mentor or Buddy).');
      return { link, examination: null };
    }
    // A cancelled examination takes its links with it (ON DELETE CASCADE); a graded one leaves nothing to do.
    const x = await repos.trainingExaminations.find(link.training_id, link.examination_id!);
    if (!x) throw new LinkGoneError('unknown');
    if (x.result !== null) throw new LinkGoneError('graded');
    if (!x.examiners.includes(cid)) {
      const names = await repos.staff.names(x.examiners);
      const who = andList(x.examiners.map((c) => `${names.get(c) ?? 'CID'} (${c})`));
      throw new ForbiddenError(`This link is for an examiner of this examination: ${who}.`);
    }
    return { link, examination: x };
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
