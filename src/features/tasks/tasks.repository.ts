// Tasks between staff (contract §21): the rows, the training a task is about, the people it names,
// and who an area's tasks may be sent to.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Dialect, Executor } from '../../core/db/connection.js';
import type { TasksTable } from '../../core/db/schema.js';

export type TaskRow = Selectable<TasksTable>;

export interface TaskFilter {
  assignee_id?: number;
  status?: string;
  training_id?: number;
}

/** A training as tasks need it: whose, where, and who mentors it. */
export interface TaskTraining {
  id: number;
  user_id: number;
  area_id: number;
  area: string;
  status: number;
  ratings: number[];
  mentors: number[];
}

export interface TaskPerson {
  id: number;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

export function tasksRepository(db: Executor, dialect: Dialect) {
  return {
    find(id: number): Promise<TaskRow | undefined> {
      return db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The task read under its row lock (PostgreSQL; SQLite's write transaction holds the whole database). */
    lockedFind(id: number): Promise<TaskRow | undefined> {
      return db
        .selectFrom('tasks')
        .selectAll()
        .where('id', '=', id)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
    },

    list(f: TaskFilter): Promise<TaskRow[]> {
      return db
        .selectFrom('tasks')
        .selectAll()
        .$if(f.assignee_id !== undefined, (q) => q.where('assignee_id', '=', f.assignee_id!))
        .$if(f.status !== undefined, (q) => q.where('status', '=', f.status as TaskRow['status']))
        .$if(f.training_id !== undefined, (q) => q.where('training_id', '=', f.training_id!))
        .orderBy('id')
        .execute();
    },

    /** The member's tasks, received or sent: every pending one, and those closed since `since`. */
    ofMember(cid: number, since: number): Promise<TaskRow[]> {
      return db
        .selectFrom('tasks')
        .selectAll()
        .where((eb) => eb.or([eb('assignee_id', '=', cid), eb('creator_id', '=', cid)]))
        .where((eb) => eb.or([eb('status', '=', 'pending'), eb('closed_at', '>=', since)]))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    ofTraining(trainingId: number): Promise<TaskRow[]> {
      return db.selectFrom('tasks').selectAll().where('training_id', '=', trainingId).orderBy('id', 'desc').execute();
    },

    async pendingFor(cid: number): Promise<number> {
      const row = await db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('assignee_id', '=', cid)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async training(id: number): Promise<TaskTraining | undefined> {
      const t = await db
        .selectFrom('trainings as t')
        .innerJoin('areas as a', 'a.id', 't.area_id')
        .select(['t.id', 't.user_id', 't.area_id', 'a.name as area', 't.status'])
        .where('t.id', '=', id)
        .executeTakeFirst();
      if (!t) return undefined;
      const [mentors, ratings] = await Promise.all([
        db.selectFrom('training_mentors').select('user_id').where('training_id', '=', id).execute(),
        db.selectFrom('training_ratings').select('rating').where('training_id', '=', id).execute(),
      ]);
      return { ...t, mentors: mentors.map((m) => m.user_id), ratings: ratings.map((r) => r.rating) };
    },

    async people(cids: readonly number[]): Promise<Map<number, TaskPerson>> {
      const unique = [...new Set(cids)];
      if (unique.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('id', 'in', unique).execute();
      return new Map(rows.map((r) => [r.id, r]));
    },

    /**
     * Who the area's tasks may be sent to — its Moderators and Administrators and the division-wide
     * Administrators — with how many of the area's tasks each has been sent (the page puts the most
     * used first).
     */
    async assignees(areaId: number): Promise<Array<{ id: number; uses: number }>> {
      const rows = await db
        .selectFrom('roles as r')
        .select('r.user_id as id')
        .select((eb) =>
          eb
            .selectFrom('tasks as k')
            .innerJoin('trainings as t', 't.id', 'k.training_id')
            .select(sql<number | string>`count(*)`.as('n'))
            .whereRef('k.assignee_id', '=', 'r.user_id')
            .where('t.area_id', '=', areaId)
            .as('uses'),
        )
        .where((eb) =>
          eb.or([
            eb.and([eb('r.area_id', '=', areaId), eb('r.role', 'in', ['Moderator', 'Administrator'])]),
            eb.and([eb('r.area_id', 'is', null), eb('r.role', '=', 'Administrator')]),
          ]),
        )
        .execute();
      const uses = new Map<number, number>();
      for (const r of rows) uses.set(r.id, Number(r.uses ?? 0));
      return [...uses].map(([id, n]) => ({ id, uses: n }));
    },

    async add(row: Insertable<TasksTable>): Promise<number> {
      const made = await db.insertInto('tasks').values(row).returning('id').executeTakeFirstOrThrow();
      return made.id;
    },

    async close(id: number, patch: Pick<TaskRow, 'status' | 'closed_at' | 'closed_message'>): Promise<void> {
      await db.updateTable('tasks').set(patch).where('id', '=', id).execute();
    },
  };
}

export type TasksRepository = ReturnType<typeof tasksRepository>;
