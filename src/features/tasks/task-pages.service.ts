// What the tasks pages read (contract §21): a member's received, sent and recently closed tasks; a
// training's tasks with whom the viewer may ask (the area's three most-used assignees first); the
// count the member's home shows. Reads only: every change goes through TasksService.
import { mayDo, type StaffMember } from '../roles/domain.js';
import type { Deps } from '../../app/deps.js';
import { CLOSED_SHOWN_DAYS } from './domain.js';
import type { TaskRow, TaskTraining } from './tasks.repository.js';

const DAY_MS = 86_400_000;
/** How many of the most-used assignees come first in the picker. */
const FIRST = 3;

export interface MemberTasks {
  received: TaskRow[];
  sent: TaskRow[];
  closed: TaskRow[];
  /** CID -> "First Last". */
  names: Map<number, string>;
}

export interface TrainingTasks {
  tasks: TaskRow[];
  names: Map<number, string>;
  /** Whether the viewer may send tasks about this training. */
  mayCreate: boolean;
  /** Whom they may ask: the most used first, then by name. */
  assignees: Array<{ cid: number; name: string }>;
}

export class TaskPagesService {
  constructor(private readonly deps: Deps<'repos' | 'clock'>) {}

  async mine(cid: number): Promise<MemberTasks> {
    const rows = await this.deps.repos.tasks.ofMember(cid, this.deps.clock() - CLOSED_SHOWN_DAYS * DAY_MS);
    const pending = rows.filter((t) => t.status === 'pending');
    return {
      received: pending.filter((t) => t.assignee_id === cid),
      sent: pending.filter((t) => t.creator_id === cid && t.assignee_id !== cid),
      closed: rows.filter((t) => t.status !== 'pending'),
      names: await this.names(rows.flatMap((t) => [t.creator_id, t.assignee_id, t.subject_user_id])),
    };
  }

  /** A training's tasks as its staff page shows them; `training` as the viewer may see it. */
  async ofTraining(viewer: StaffMember, training: { id: number; user_id: number; area_id: number; mentors: readonly number[] }) {
    const [tasks, choices] = await Promise.all([
      this.deps.repos.tasks.ofTraining(training.id),
      this.deps.repos.tasks.assignees(training.area_id),
    ]);
    const names = await this.names([
      ...tasks.flatMap((t) => [t.creator_id, t.assignee_id, t.subject_user_id]),
      ...choices.map((c) => c.id),
    ]);
    const byName = (a: { id: number }, b: { id: number }) => (names.get(a.id) ?? '').localeCompare(names.get(b.id) ?? '') || a.id - b.id;
    const used = [...choices]
      .filter((c) => c.uses > 0)
      .sort((a, b) => b.uses - a.uses || byName(a, b))
      .slice(0, FIRST);
    const rest = choices.filter((c) => !used.includes(c)).sort(byName);
    const mayCreate = mayDo(viewer, { kind: 'task', area: training.area_id, mentor: training.mentors.includes(viewer.cid) }).ok;
    return {
      tasks,
      names,
      mayCreate,
      assignees: [...used, ...rest].map((c) => ({ cid: c.id, name: names.get(c.id) ?? '' })),
    } satisfies TrainingTasks;
  }

  /** The training, when the viewer sees it (its area's staff, or its mentor); null otherwise. */
  async training(viewer: StaffMember, id: number): Promise<TaskTraining | null> {
    const t = await this.deps.repos.tasks.training(id);
    const sees = t && (t.mentors.includes(viewer.cid) || mayDo(viewer, { kind: 'report', area: t.area_id, student: t.user_id }).ok);
    return sees ? t : null;
  }

  /** The tasks waiting for the member (the home page's count). */
  pendingFor(cid: number): Promise<number> {
    return this.deps.repos.tasks.pendingFor(cid);
  }

  /** CID -> "First Last". */
  async names(cids: number[]): Promise<Map<number, string>> {
    const people = await this.deps.repos.tasks.people(cids);
    return new Map([...people].map(([id, p]) => [id, `${p.first_name ?? ''} ${p.last_name ?? ''}`.trim()]));
  }
}
