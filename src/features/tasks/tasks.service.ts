// Tasks between staff (contract §21): created by a training's mentors and the area's staff, sent to
// one Moderator or Administrator, closed by them (completed, declined) or withdrawn by the creator.
// Each change is one Write with its audit entry, its event and its mail; closing reads the task
// under its row lock, so of two closings at once one wins and the other is 409.
import { mailableMembers } from '../notices/index.js';
import type { AuditActor } from '../../core/domain/audit.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { examinerMail } from '../operations/index.js';
import { personName } from '../members/domain/names.js';
import { ratingValue } from '../members/domain/ratings.js';
import { mayDo } from '../roles/domain.js';
import type { Deps, Write } from '../../app/deps.js';
import {
  assigneeProblem,
  type ClosingStatus,
  closerProblem,
  inputErrors,
  type TaskInput,
  TASK_TEXT_MAX,
  TASK_TYPE_TEXT,
} from './domain.js';
import { presentTask } from './tasks.presenter.js';
import type { TaskFilter, TaskPerson, TaskRow } from './tasks.repository.js';
import type { Task } from './tasks.schema.js';

export interface NewTask extends TaskInput {
  creator_id: number;
}

export interface Closing {
  status: ClosingStatus;
  closed_message: string | null;
  actor_id: number;
}

const target = (id: number) => `task:${id}`;
const nameOf = (people: ReadonlyMap<number, TaskPerson>, cid: number) => {
  const p = people.get(cid);
  return personName(new Map(p ? [[cid, `${p.first_name ?? ''} ${p.last_name ?? ''}`.trim()]] : []), cid);
};

export class TasksService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'config'>) {}

  async list(filter: TaskFilter): Promise<Task[]> {
    return (await this.deps.repos.tasks.list(filter)).map(presentTask);
  }

  async get(id: number): Promise<Task> {
    const t = await this.deps.repos.tasks.find(id);
    if (!t) throw new NotFoundError('Task');
    return presentTask(t);
  }

  create(input: NewTask, actor: AuditActor): Promise<Task> {
    return this.deps.writer.write(async (w) => {
      const errors = inputErrors(input);
      // An id is a 32-bit integer in both databases: a larger one names no training (never a database error).
      const training =
        input.training_id === null || input.training_id > 2_147_483_647 ? undefined : await w.repos.tasks.training(input.training_id);
      if (input.training_id !== null && !training) errors.training_id = [`There is no training ${input.training_id}.`];
      const people = await w.repos.tasks.people([input.subject_user_id, input.creator_id, input.assignee_id]);
      if (training && training.user_id !== input.subject_user_id)
        errors.subject_user_id = [`Training ${training.id} is not this member's: its student is ${training.user_id}.`];
      else if (!people.has(input.subject_user_id)) errors.subject_user_id = [`There is no member ${input.subject_user_id}.`];
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const area = training ? { id: training.area_id, name: training.area } : null;
      const creator = await w.repos.roles.staffMember(input.creator_id);
      const may = mayDo(creator, { kind: 'task', area: area?.id ?? null, mentor: training?.mentors.includes(input.creator_id) ?? false });
      if (!may.ok) {
        // A member on a page is refused (403); a key names a creator who may not: a field of its request.
        if (actor.kind === 'member') throw new ForbiddenError(may.reason);
        throw new ValidationError({ creator_id: [`${nameOf(people, input.creator_id)} may not send this task: ${may.reason}`] });
      }
      const problem = assigneeProblem(await w.repos.roles.staffMember(input.assignee_id), area);
      if (problem) throw new ValidationError({ assignee_id: [`${nameOf(people, input.assignee_id)} ${problem}, so cannot be asked.`] });
      const row = {
        type: input.type as TaskRow['type'],
        status: 'pending' as const,
        subject_user_id: input.subject_user_id,
        training_id: input.training_id,
        rating: input.type === 'rating_upgrade' || input.type === 'theory_exam' ? ratingValue(input.rating!.trim())! : null,
        message: input.message?.trim() || null,
        creator_id: input.creator_id,
        assignee_id: input.assignee_id,
        created_at: w.at,
        closed_at: null,
        closed_message: null,
        division_api_state: null,
        division_api_error: null,
      };
      const id = await w.repos.tasks.add(row);
      const task = presentTask({ ...row, id });
      await w.audit(actor, [{ action: 'task.created', target: target(id), before: null, after: task }]);
      await w.publish([{ type: 'task.created', data: { task } }]);
      await this.mail(w, input.assignee_id, `New task: ${TASK_TYPE_TEXT[task.type]}`, [
        `${nameOf(people, input.creator_id)} asks you: ${describe(task, people)}${area ? ` (${area.name})` : ''}.`,
        ...(task.message ? [`Message: ${task.message}`] : []),
      ]);
      return task;
    });
  }

  close(id: number, closing: Closing, actor: AuditActor): Promise<Task> {
    return this.deps.writer.write(async (w) => {
      const message = closing.closed_message?.trim() || null;
      if (message !== null && message.length > TASK_TEXT_MAX)
        throw new ValidationError({ closed_message: [`The message must be at most ${TASK_TEXT_MAX} characters.`] });
      const before = await w.repos.tasks.lockedFind(id);
      if (!before) throw new NotFoundError('Task');
      const refused = closerProblem(before, closing.status, closing.actor_id);
      if (refused) throw new ForbiddenError(refused);
      if (before.status !== 'pending') throw new ConflictError(`The task is already ${before.status}.`, { status: before.status });
      const patch = { status: closing.status, closed_at: w.at, closed_message: message };
      await w.repos.tasks.close(id, patch);
      // §22 seam: with the division's API configured, completing rating_upgrade (the upgrade) or
      // theory_exam (the exam's assignment) adds the hub's request to the outbox here, in this Write,
      // and sets division_api_state 'pending'. Without it, completing only records it.
      const task = presentTask({ ...before, ...patch });
      await w.audit(actor, [
        {
          action: `task.${closing.status}`,
          target: target(id),
          before: { status: before.status },
          after: { status: task.status, closed_message: message },
        },
      ]);
      if (closing.status === 'withdrawn') return task;
      await w.publish([{ type: closing.status === 'completed' ? 'task.completed' : 'task.declined', data: { task } }]);
      const people = await w.repos.tasks.people([before.creator_id, before.assignee_id, before.subject_user_id]);
      await this.mail(w, before.creator_id, `Task ${closing.status}: ${TASK_TYPE_TEXT[task.type]}`, [
        `${nameOf(people, before.assignee_id)} ${closing.status} your task: ${describe(task, people)}.`,
        ...(message ? [`Message: ${message}`] : []),
      ]);
      return task;
    });
  }

  private async mail(w: Write, to: number, subject: string, lines: string[]): Promise<void> {
    // The member may have turned mail about tasks off (contract §24); no address, no mail.
    const [p] = await mailableMembers(w, [to], 'tasks');
    if (!p) return;
    const { siteName, publicUrl } = this.deps.config;
    await w.mail([
      examinerMail({
        to: p.email,
        siteName,
        publicUrl,
        firstName: p.first_name,
        subject,
        lines,
        link: { path: '/staff/tasks', action: 'Your tasks are listed on the staff pages:' },
        why: 'You get this because mail about tasks is on in your settings.',
      }),
    ]);
  }
}

/** The task in words: "Rating upgrade to S3 for Ada Lind (10000001)". */
export function describe(task: Task, people: ReadonlyMap<number, TaskPerson>): string {
  const rating = task.rating ? (task.type === 'rating_upgrade' ? ` to ${task.rating}` : ` for ${task.rating}`) : '';
  return `${TASK_TYPE_TEXT[task.type]}${rating} for ${nameOf(people, task.subject_user_id)}`;
}
