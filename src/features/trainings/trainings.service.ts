// Trainings (contract §18): created by staff or applied for by members, moved between statuses by
// the rule of src/features/trainings/domain.ts, one write each with its timeline, audit entry, event and mail.
import type { AuditActor } from '../audit/domain/index.js';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../../core/domain/errors.js';
import { RATINGS, ratingValue } from '../members/domain/ratings.js';
import { authorize, rolesIn } from '../roles/domain.js';
import {
  CLOSED_REASON_MAX,
  isTrainingType,
  type Mover,
  queueWait,
  STATUS,
  TRAINING_STATUSES,
  TRAINING_TYPES,
  transitionProblem,
} from './domain.js';
import { personName } from '../members/domain/names.js';
import { trainingStatusDescription } from '../members/domain/training-status.js';
import { presentTraining, presentTrainingDetail } from './trainings.presenter.js';
import type { TrainingRecord } from './trainings.repository.js';
import type { Training, TrainingDetail } from './trainings.schema.js';
import { completeTraining } from './completion.js';
import { recordTrainingChanges, type TrainingChange } from './changes.js';
import type { Deps } from '../../app/deps.js';
import type { Write } from '../../app/deps.js';

export interface TrainingInput {
  user_id: number;
  area: string;
  type?: string;
  status?: number;
  /** Rating codes and facility names. */
  ratings: readonly string[];
  motivation?: string | null;
  experience?: number | null;
  english_only?: boolean;
}

export interface TrainingPatch {
  status?: number;
  type?: string;
  mentors?: readonly number[];
  paused?: boolean;
  closed_reason?: string;
}

export const isRowId = (id: number) => Number.isInteger(id) && id >= 1 && id <= 2_147_483_647;

export class TrainingsService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock' | 'config'>) {}

  async list(filter: { area?: string; status?: number; user_id?: number }): Promise<Training[]> {
    let areaIds: number[] | undefined;
    if (filter.area !== undefined) {
      const area = (await this.deps.repos.positions.areas()).find((a) => a.name.toLowerCase() === filter.area!.toLowerCase());
      areaIds = area ? [area.id] : [];
    }
    const rows = await this.deps.repos.trainings.list({
      ...(areaIds ? { areaIds } : {}),
      ...(filter.status !== undefined ? { statuses: [filter.status] } : {}),
      ...(filter.user_id !== undefined ? { user_id: filter.user_id } : {}),
    });
    return rows.map(presentTraining);
  }

  /** A training with its records; drafts and the timeline only for staff. */
  async detail(id: number, forStaff = true): Promise<TrainingDetail> {
    const t = isRowId(id) ? await this.deps.repos.trainings.find(id) : undefined;
    if (!t) throw new NotFoundError('Training');
    const records = this.deps.repos.trainingRecords;
    return presentTrainingDetail(
      t,
      await records.reports(id, forStaff),
      await this.deps.repos.trainingExaminations.ofTraining(id),
      forStaff ? await records.timeline(id) : [],
      (await this.deps.repos.attachments.ofTrainings([id])).filter((a) => forStaff || a.hidden === 0),
    );
  }

  /** A training created by staff (the API, a staff page): any type, for anyone. */
  create(input: TrainingInput, actor: AuditActor): Promise<Training> {
    return this.deps.writer.write(async (w) => {
      const { areaId, ratings, facilities } = await this.checkedInput(w, input);
      if (actor.kind === 'member') {
        authorize(await w.repos.roles.staffMember(actor.cid), 'training', { area: areaId, student: input.user_id, statusOnly: false });
      }
      return presentTraining(await this.insert(w, input, areaId, ratings, facilities, actor));
    });
  }

  /** The checks every new training passes: the user, the area, the type and what it trains for. */
  async checkedInput(w: Write, input: TrainingInput) {
    const errors: FieldErrors = {};
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);
    // A page's field may hold anything: only a CID that can be one is looked up.
    if (!isRowId(input.user_id)) add('user_id', 'Give the CID of the member to train (a number).');
    else if (!(await w.repos.endorsements.lockUser(input.user_id))) add('user_id', `There is no user with CID ${input.user_id}.`);
    const area = (await w.repos.positions.areas()).find((a) => a.name.toLowerCase() === input.area.trim().toLowerCase());
    if (!area) add('area', `There is no area named "${input.area}".`);
    if (input.type !== undefined && !isTrainingType(input.type)) add('type', `The type must be one of: ${TRAINING_TYPES.join(', ')}.`);
    const facilityNames = new Set((await w.repos.positions.list()).flatMap((p) => (p.required_facility ? [p.required_facility] : [])));
    const ratings: number[] = [];
    const facilities: string[] = [];
    for (const r of new Set(input.ratings.map((x) => x.trim()).filter(Boolean))) {
      const value = ratingValue(r.toUpperCase());
      if (value !== undefined && value >= RATINGS.S1 && value <= RATINGS.C3) ratings.push(value);
      else if (facilityNames.has(r)) facilities.push(r);
      else add('ratings', `"${r}" is neither a rating from S1 to C3 nor a facility endorsement a position requires.`);
    }
    if (ratings.length + facilities.length === 0 && !errors.ratings)
      add('ratings', 'Name at least one rating or facility endorsement to train for.');
    if (input.experience != null && !(input.experience >= 1 && input.experience <= 6))
      add('experience', 'The experience must be from 1 to 6.');
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    return { areaId: area!.id, ratings, facilities };
  }

  async insert(
    w: Write,
    input: TrainingInput,
    areaId: number,
    ratings: number[],
    facilities: string[],
    actor: AuditActor,
  ): Promise<TrainingRecord> {
    const status = input.status ?? STATUS.IN_QUEUE;
    const id = await w.repos.trainings.insert(
      {
        user_id: input.user_id,
        area_id: areaId,
        type: input.type ?? 'Standard',
        status,
        created_at: w.at,
        started_at: status >= 1 ? w.at : null,
        motivation: input.motivation?.trim() || null,
        experience: input.experience ?? null,
        english_only: input.english_only ? 1 : 0,
      },
      ratings,
      facilities,
    );
    if (id === null) throw new ConflictError('A training of this user in this area was created at this same instant; try again.');
    if (status >= 1) await w.repos.trainings.update(id, { queue_wait_ms: 0 });
    const after = (await w.repos.trainings.find(id))!;
    await recordTrainingChanges(w, this.deps.config, [
      {
        actor,
        before: null,
        after,
        timeline: [{ action: 'created', detail: { type: after.type, status, ratings: after.ratings } }],
        event: { type: 'training.created' },
        mail: { kind: 'created', lines: [`It is ${trainingStatusDescription(status).toLowerCase()}, for ${after.ratings.join(', ')}.`] },
      },
    ]);
    return after;
  }

  /** Changes status, type, mentors or pause; a member is held to their roles (a mentor: own trainees, statuses 1–3). */
  update(id: number, patch: TrainingPatch, actor: AuditActor): Promise<Training> {
    return this.deps.writer.write(async (w) => {
      const before = await this.locked(w, id);
      const mover = await this.moverOf(w, actor, before, patch);
      const change = await this.applyPatch(w, before, patch, actor, mover);
      return presentTraining(change.after);
    });
  }

  /** The training, its row held to the end of the write; 404 when there is none. */
  async locked(w: Write, id: number): Promise<TrainingRecord> {
    if (isRowId(id)) await w.repos.trainings.lock(id);
    const t = isRowId(id) ? await w.repos.trainings.find(id) : undefined;
    if (!t) throw new NotFoundError('Training');
    return t;
  }

  /** Who is moving the training: staff, or a mentor of their own trainee; a member without the right is refused. */
  async moverOf(w: Write, actor: AuditActor, t: TrainingRecord, patch: TrainingPatch): Promise<Mover> {
    if (actor.kind !== 'member') return 'staff';
    const staff = await w.repos.roles.staffMember(actor.cid);
    const statusOnly = Object.keys(patch).every((k) => k === 'status');
    authorize(staff, 'training', { area: t.area_id, student: t.user_id, statusOnly });
    const roles = rolesIn(staff, t.area_id);
    return roles.has('Administrator') || roles.has('Moderator') ? 'staff' : 'mentor';
  }

  /** Applies the patch by the rules, and records it. */
  async applyPatch(w: Write, before: TrainingRecord, patch: TrainingPatch, actor: AuditActor, mover: Mover): Promise<TrainingChange> {
    const errors: FieldErrors = {};
    const to = patch.status ?? before.status;
    if (patch.type !== undefined && !isTrainingType(patch.type)) errors.type = [`The type must be one of: ${TRAINING_TYPES.join(', ')}.`];
    if (!(TRAINING_STATUSES as readonly number[]).includes(to))
      errors.status = [`The status must be one of: ${TRAINING_STATUSES.join(', ')}.`];
    const reason = patch.closed_reason?.trim();
    if (to === STATUS.CLOSED_BY_STAFF && to !== before.status && (!reason || reason.length > CLOSED_REASON_MAX)) {
      errors.closed_reason = [`Closing a training needs a reason of 1 to ${CLOSED_REASON_MAX} characters.`];
    }
    let mentors: number[] | undefined;
    if (patch.mentors !== undefined) {
      mentors = [...new Set(patch.mentors)];
      if (!mentors.every(isRowId)) errors.mentors = ['Each mentor is named by their CID (a number).'];
      else {
        const eligible = new Set(await w.repos.trainings.mentorsAmong(before.area_id, mentors));
        const not = mentors.filter((m) => !eligible.has(m));
        if (not.length > 0)
          errors.mentors = [`Not a mentor in ${before.area}: ${not.join(', ')} (Mentor or a higher role there is needed).`];
      }
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const problem = transitionProblem(before.status, to, mover);
    if (problem) throw new ConflictError(problem);
    if (before.status < 0) throw new ConflictError(`A training that is ${trainingStatusDescription(before.status)} cannot be changed.`);

    const at = w.at;
    const timeline: Array<{ action: string; detail: Record<string, unknown> }> = [];
    const set: Parameters<Write['repos']['trainings']['update']>[1] = {};
    let pausedMs = before.paused_ms;
    let pausedAt = before.paused_at;
    if (patch.paused !== undefined && patch.paused !== (before.paused_at !== null)) {
      if (patch.paused) pausedAt = at;
      else [pausedMs, pausedAt] = [pausedMs + (at - before.paused_at!), null];
      timeline.push({ action: patch.paused ? 'paused' : 'resumed', detail: {} });
    }
    if (to !== before.status) {
      timeline.push({ action: 'status', detail: { from: before.status, to, ...(reason ? { reason } : {}) } });
      if (before.status === STATUS.IN_QUEUE && to >= 1)
        Object.assign(set, { started_at: at, queue_wait_ms: queueWait({ ...before, paused_ms: pausedMs, paused_at: pausedAt }, at) });
      if (to === STATUS.IN_QUEUE) Object.assign(set, { started_at: null, queue_wait_ms: null });
      if (to < 0) {
        if (pausedAt !== null) [pausedMs, pausedAt] = [pausedMs + (at - pausedAt), null];
        Object.assign(set, {
          closed_at: at,
          closed_reason: to === STATUS.CLOSED_BY_STAFF ? reason! : (patch.closed_reason ?? null),
          interest_deadline: null,
        });
      }
      set.status = to;
    }
    if (patch.type !== undefined && patch.type !== before.type) {
      set.type = patch.type;
      timeline.push({ action: 'type', detail: { from: before.type, to: patch.type } });
    }
    Object.assign(set, { paused_ms: pausedMs, paused_at: pausedAt });
    await w.repos.trainings.update(before.id, set);
    const added = mentors ? mentors.filter((m) => !before.mentors.includes(m)) : [];
    if (mentors && (added.length > 0 || mentors.length !== before.mentors.length)) {
      await w.repos.trainings.setMentors(before.id, mentors);
      timeline.push({ action: 'mentors', detail: { from: before.mentors, to: mentors } });
    }
    if (to === STATUS.COMPLETED && before.status !== to) timeline.push(...(await completeTraining(w, before, actor)));
    const after = (await w.repos.trainings.find(before.id))!;
    const statusChanged = to !== before.status;
    const mentorNames = added.length === 0 ? new Map<number, string>() : await w.repos.staff.names(added);
    const named = added.map((m) => personName(mentorNames, m));
    const mentorLine = `${added.length === 1 ? 'A mentor was' : 'Mentors were'} assigned: ${named.join(', ')}.`;
    const change: TrainingChange = {
      actor,
      before,
      after,
      timeline,
      event: timeline.length === 0 ? null : { type: to < 0 && statusChanged ? 'training.closed' : 'training.updated' },
      mail: statusChanged
        ? {
            kind: 'status',
            lines: [
              `Its status is now ${trainingStatusDescription(to)}.`,
              ...(after.closed_reason ? [`Reason: ${after.closed_reason}`] : []),
              ...(added.length > 0 ? [mentorLine] : []),
            ],
          }
        : added.length > 0
          ? { kind: 'mentor', lines: [mentorLine] }
          : null,
    };
    await recordTrainingChanges(w, this.deps.config, [change]);
    return change;
  }
}
