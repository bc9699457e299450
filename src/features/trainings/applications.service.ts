// The student's side of training (contract §18): applying, their own page (place in the queue and
// estimate), confirming interest and closing their request — and the continued-interest job that
// asks after 30 days and closes unconfirmed requests after 14 more.
import type { AuditActor } from '../audit/domain/index.js';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../../core/domain/errors.js';
import {
  type ApplyOption,
  applyOptions,
  ESTIMATE_WINDOW_MS,
  INTEREST_AFTER_MS,
  INTEREST_DEADLINE_MS,
  INTEREST_REASON,
  MOTIVATION_MAX,
  MOTIVATION_MIN,
  queueEstimate,
  STATUS,
} from './domain.js';
import { trainingStatusDescription } from '../members/domain/training-status.js';
import { presentTrainingDetail } from './trainings.presenter.js';
import { studentSees } from './attachments.domain.js';
import type { TrainingRecord } from './trainings.repository.js';
import type { TrainingDetail } from './trainings.schema.js';
import { recordTrainingChanges, type TrainingChange } from './changes.js';
import type { TrainingsService } from './trainings.service.js';
import type { Deps } from '../../app/deps.js';
import type { Write } from '../../app/deps.js';

export interface ApplicationInput {
  area: string;
  /** The next rating's code and/or facility names, among the area's options. */
  ratings: readonly string[];
  motivation: string;
  experience: number | null;
  english_only: boolean;
}

/** What the student's page shows. */
export interface MyTraining {
  training: TrainingDetail;
  /** In the queue: their place among the trainings of the same area and ratings. */
  place: { position: number; of: number } | null;
  /** From past waits of the same queue (ms), or null: not enough data. */
  estimate: { low: number; high: number } | null;
  /** Asked to confirm interest: by when. */
  interestDeadline: number | null;
}

/** Trainings with the same area and ratings wait in one queue. */
const queueKey = (t: Pick<TrainingRecord, 'area_id' | 'ratings'>) => `${t.area_id}:${[...t.ratings].sort().join(',')}`;
const BATCH = 500;

export class TrainingApplicationsService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock' | 'config'> & { trainings: TrainingsService }) {}

  /** What the member may apply for, per area; `openId` when they already have an open training. */
  async options(cid: number): Promise<{ options: ApplyOption[]; openId: number | null }> {
    const repos = this.deps.repos;
    const facts = await repos.trainings.applicant(cid, this.deps.clock());
    if (facts.rating === null) throw new NotFoundError('User');
    const options = applyOptions(facts.rating, await repos.positions.areas(), await repos.trainings.positionsByArea(), facts.held);
    return { options: options.filter((o) => o.rating !== null || o.facilities.length > 0), openId: facts.openId };
  }

  /** The member applies: one open training at a time (checked under the member's row lock). */
  apply(cid: number, input: ApplicationInput, actor: AuditActor): Promise<TrainingRecord> {
    return this.deps.writer.write(async (w) => {
      if (!(await w.repos.endorsements.lockUser(cid))) throw new NotFoundError('User');
      const facts = await w.repos.trainings.applicant(cid, w.at);
      if (facts.openId !== null) {
        throw new ConflictError('You already have an open training request; close it before applying again.', {
          training_id: facts.openId,
        });
      }
      const errors: FieldErrors = {};
      const add = (field: string, message: string) => (errors[field] ??= []).push(message);
      const option = applyOptions(
        facts.rating!,
        await w.repos.positions.areas(),
        await w.repos.trainings.positionsByArea(),
        facts.held,
      ).find((o) => o.area.toLowerCase() === input.area.trim().toLowerCase());
      const chosen = [...new Set(input.ratings.map((r) => r.trim()).filter(Boolean))];
      if (!option) add('area', 'Choose an area.');
      else if (chosen.length === 0) add('ratings', 'Choose what you want to train for.');
      else {
        const allowed = new Set([...(option.rating ? [option.rating] : []), ...option.facilities]);
        const not = chosen.filter((r) => !allowed.has(r));
        if (not.length > 0) add('ratings', `You cannot apply for ${not.join(', ')} in ${option.area}.`);
      }
      const motivation = input.motivation.trim();
      if (motivation.length < MOTIVATION_MIN || motivation.length > MOTIVATION_MAX)
        add('motivation', `Write a motivation of ${MOTIVATION_MIN} to ${MOTIVATION_MAX} characters (now ${motivation.length}).`);
      if (input.experience === null || !(input.experience >= 1 && input.experience <= 6)) add('experience', 'Choose your experience.');
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const { areaId, ratings, facilities } = await this.deps.trainings.checkedInput(w, {
        user_id: cid,
        area: option!.area,
        ratings: chosen,
      });
      return this.deps.trainings.insert(
        w,
        { user_id: cid, area: option!.area, ratings: chosen, motivation, experience: input.experience, english_only: input.english_only },
        areaId,
        ratings,
        facilities,
        actor,
      );
    });
  }

  /** The member's open training (else their last one), as they see it; null when they have none. */
  async mine(cid: number): Promise<MyTraining | null> {
    const repos = this.deps.repos;
    const id = await repos.trainings.latestOf(cid);
    const t = id === null ? undefined : await repos.trainings.find(id);
    if (!t) return null;
    const now = this.deps.clock();
    const training = presentTrainingDetail(
      t,
      await repos.trainingRecords.reports(t.id, false),
      await repos.trainingExaminations.ofTraining(t.id),
      [],
      (await repos.attachments.ofTrainings([t.id])).filter((a) => studentSees(cid, a)),
    );
    let place: MyTraining['place'] = null;
    let estimate: MyTraining['estimate'] = null;
    if (t.status === STATUS.IN_QUEUE) {
      const key = queueKey(t);
      const queue = (await repos.trainings.list({ areaIds: [t.area_id], statuses: [STATUS.IN_QUEUE], byCreation: true })).filter(
        (q) => queueKey(q) === key,
      );
      place = { position: queue.findIndex((q) => q.id === t.id) + 1, of: queue.length };
      const past = (await repos.trainings.pastWaits(t.area_id, now - ESTIMATE_WINDOW_MS)).filter((p) => queueKey(p) === key);
      estimate = queueEstimate(past.map((p) => p.queue_wait_ms!));
    }
    return { training, place, estimate, interestDeadline: t.interest_deadline };
  }

  /** The student closes their own request (-3). */
  close(cid: number, actor: AuditActor): Promise<void> {
    return this.deps.writer.write(async (w) => {
      const t = await this.ownOpen(w, cid);
      await this.deps.trainings.applyPatch(w, t, { status: STATUS.CLOSED_BY_STUDENT }, actor, 'student');
    });
  }

  /** The student confirms they still want their training: the next request comes 30 days from now. */
  confirmInterest(cid: number, actor: AuditActor): Promise<void> {
    return this.deps.writer.write(async (w) => {
      const before = await this.ownOpen(w, cid);
      await w.repos.trainings.update(before.id, { interest_confirmed_at: w.at, interest_deadline: null });
      const after = (await w.repos.trainings.find(before.id))!;
      await recordTrainingChanges(w, this.deps.config, [
        { actor, before, after, timeline: [{ action: 'interest_confirmed', detail: {} }], event: null, mail: null },
      ]);
    });
  }

  /**
   * One run of continued interest (contract §18): asks students whose request waited 30 days, closes
   * those not confirmed in time; true when a batch was full (more may wait).
   */
  checkInterest(): Promise<boolean> {
    return this.deps.writer.write((w) => this.interestRun(w));
  }

  private async interestRun(w: Write): Promise<boolean> {
    const system: AuditActor = { kind: 'system' };
    const expired = (await w.repos.trainings.interestExpired(w.at)).map((t) => t.id);
    const due = (await w.repos.trainings.interestDue(w.at - INTEREST_AFTER_MS)).map((t) => t.id);
    const before = new Map((await w.repos.trainings.list({ ids: [...expired, ...due] })).map((t) => [t.id, t]));
    const deadline = w.at + INTEREST_DEADLINE_MS;
    await w.repos.trainings.closeBySystem(expired, w.at, INTEREST_REASON);
    await w.repos.trainings.requestInterest(due, deadline);
    const after = await w.repos.trainings.list({ ids: [...expired, ...due] });
    const closed = new Set(expired);
    const changes: TrainingChange[] = after.map((t) =>
      closed.has(t.id)
        ? {
            actor: system,
            before: before.get(t.id)!,
            after: t,
            timeline: [{ action: 'status', detail: { from: before.get(t.id)!.status, to: t.status, reason: INTEREST_REASON } }],
            event: { type: 'training.closed' },
            mail: { kind: 'status', lines: [`Its status is now ${trainingStatusDescription(t.status)}.`, `Reason: ${INTEREST_REASON}`] },
          }
        : {
            actor: system,
            before: before.get(t.id)!,
            after: t,
            timeline: [{ action: 'interest_requested', detail: { deadline: new Date(deadline).toISOString() } }],
            event: null,
            mail: { kind: 'interest', lines: [`Please confirm you still want it by ${new Date(deadline).toISOString().slice(0, 10)}.`] },
          },
    );
    await recordTrainingChanges(w, this.deps.config, changes);
    return expired.length === BATCH || due.length === BATCH;
  }

  private async ownOpen(w: Write, cid: number): Promise<TrainingRecord> {
    const { openId } = await w.repos.trainings.applicant(cid, w.at);
    if (openId === null) throw new NotFoundError('Open training');
    // Read again under its lock: Sector may have closed it meanwhile.
    const t = await this.deps.trainings.locked(w, openId);
    if (t.status < 0) throw new NotFoundError('Open training');
    return t;
  }
}
