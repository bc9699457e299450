// The requests owed to the division's hub (contract §22), the cursor over the outbox they are taken
// from, and the facts deciding them (a member's Mentor roles, active examiner endorsements, rating,
// the facilities' tiers), each read for a whole batch at once.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database } from '../../core/db/schema.js';

const CURSOR = 'division';
const WATCHED = [
  'role.granted',
  'role.revoked',
  'endorsement.created',
  'endorsement.updated',
  'endorsement.revoked',
  'endorsement.expired',
  'task.completed',
  'training.examination',
];

export interface NewDivisionRequest {
  member_cid: number;
  about: string;
  operation: string;
  task_id: number | null;
  /** Refused locally (no acting member): stored refused with this reason. */
  error: string | null;
}

export type DivisionRequestRow = Awaited<ReturnType<ReturnType<typeof divisionRequestsRepository>['open']>>[number];

export function divisionRequestsRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** How far the outbox has been taken (null: never: the hub starts from now). Locks it on PostgreSQL. */
    async cursor(): Promise<number | null> {
      const row = await db
        .selectFrom('outbox_cursors')
        .select('seq')
        .where('name', '=', CURSOR)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      return row ? row.seq : null;
    },

    /** Starts from the outbox's end, with the hub taken to know today's mentors and examiners (brought in step by hand first). */
    async start(now: number): Promise<void> {
      await sql`INSERT INTO outbox_cursors (name, seq) SELECT ${CURSOR}, COALESCE(MAX(seq), 0) FROM events`.execute(db);
      await sql`INSERT INTO division_flags (member_cid, flag) SELECT DISTINCT user_id, 'mentor' FROM roles WHERE role = 'Mentor'`.execute(
        db,
      );
      await sql`INSERT INTO division_flags (member_cid, flag) SELECT DISTINCT user_id, 'examiner' FROM endorsements
        WHERE type = 'examiner' AND revoked = 0 AND (valid_to IS NULL OR valid_to > ${now})`.execute(db);
    },

    async events(after: number, limit: number) {
      const rows = await db
        .selectFrom('events')
        .select(['seq', 'type', 'body', 'created_at'])
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return { rows: rows.filter((r) => WATCHED.includes(r.type)), last: rows.length ? rows[rows.length - 1]!.seq : after };
    },

    /**
     * The members who granted or revoked roles: a role event names none, and the audit entry written
     * in the same change (same action, target and instant) does. Keyed `action|target|at`.
     */
    async roleActors(changes: ReadonlyArray<{ action: string; target: string; at: number }>): Promise<Map<string, number>> {
      if (changes.length === 0) return new Map();
      const rows = await db
        .selectFrom('audit_log')
        .select(['action', 'target', 'at', 'actor'])
        .where('target', 'in', [...new Set(changes.map((c) => c.target))])
        .where('at', 'in', [...new Set(changes.map((c) => c.at))])
        .where('action', 'in', ['role.granted', 'role.revoked'])
        .where('actor', 'like', 'member:%')
        .execute();
      return new Map(rows.map((r) => [`${r.action}|${r.target}|${r.at}`, Number(r.actor.slice('member:'.length))]));
    },

    async advance(seq: number): Promise<void> {
      await db.updateTable('outbox_cursors').set({ seq }).where('name', '=', CURSOR).execute();
    },

    /** For these members: Mentor roles held, active examiner endorsements, rating, and the flags the hub was told. */
    async facts(cids: number[], now: number) {
      if (cids.length === 0) return new Map<number, { mentors: number; examiners: number; rating: number; flags: Set<string> }>();
      const rows = await db
        .selectFrom('users as u')
        .select((eb) => [
          'u.id',
          'u.rating',
          eb
            .selectFrom('roles as r')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('r.user_id', '=', 'u.id')
            .where('r.role', '=', 'Mentor')
            .as('mentors'),
          eb
            .selectFrom('endorsements as e')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('e.user_id', '=', 'u.id')
            .where('e.type', '=', 'examiner')
            .where('e.revoked', '=', 0)
            .where((w) => w.or([w('e.valid_to', 'is', null), w('e.valid_to', '>', now)]))
            .as('examiners'),
        ])
        .where('u.id', 'in', cids)
        .execute();
      const flags = await db.selectFrom('division_flags').selectAll().where('member_cid', 'in', cids).execute();
      return new Map(
        rows.map((r) => [
          r.id,
          {
            mentors: r.mentors ?? 0,
            examiners: r.examiners ?? 0,
            rating: r.rating,
            flags: new Set(flags.filter((f) => f.member_cid === r.id).map((f) => f.flag)),
          },
        ]),
      );
    },

    async setFlag(cid: number, flag: 'mentor' | 'examiner', on: boolean): Promise<void> {
      if (on)
        await db
          .insertInto('division_flags')
          .values({ member_cid: cid, flag })
          .onConflict((oc) => oc.doNothing())
          .execute();
      else await db.deleteFrom('division_flags').where('member_cid', '=', cid).where('flag', '=', flag).execute();
    },

    async tiers(names: string[]): Promise<Map<string, 'T1' | 'T2'>> {
      if (names.length === 0) return new Map();
      const rows = await db
        .selectFrom('facilities')
        .select(['name', 'tier'])
        .where('name', 'in', names)
        .where('tier', 'is not', null)
        .execute();
      return new Map(rows.map((r) => [r.name, r.tier as 'T1' | 'T2']));
    },

    /** The division-wide Administrator with the lowest cid: the acting member of requests no member made. */
    async fallbackActor(): Promise<number | null> {
      const row = await db
        .selectFrom('roles')
        .select((eb) => eb.fn.min<number>('user_id').as('cid'))
        .where('role', '=', 'Administrator')
        .where('area_id', 'is', null)
        .executeTakeFirst();
      return row?.cid ?? null;
    },

    async add(rows: NewDivisionRequest[], now: number): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('division_requests')
        .values(
          rows.map((r) => ({ ...r, state: r.error === null ? ('pending' as const) : ('refused' as const), next_at: now, created_at: now })),
        )
        .execute();
      const tasks = rows.filter((r) => r.task_id !== null);
      for (const state of ['pending', 'refused'] as const) {
        const ids = tasks.filter((r) => (r.error === null) === (state === 'pending')).map((r) => r.task_id!);
        if (ids.length) await db.updateTable('tasks').set({ division_api_state: state }).where('id', 'in', ids).execute();
      }
    },

    /**
     * The first due request that may go: none earlier about the same member still pending (commit
     * order per member), none earlier about the same thing refused (held back).
     */
    async nextDue(now: number) {
      return db
        .selectFrom('division_requests as d')
        .selectAll('d')
        .where('d.state', '=', 'pending')
        .where('d.next_at', '<=', now)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('division_requests as p')
                .select('p.id')
                .whereRef('p.id', '<', 'd.id')
                .where((w) =>
                  w.or([
                    w.and([w('p.state', '=', 'pending'), w('p.member_cid', '=', w.ref('d.member_cid'))]),
                    w.and([w('p.state', '=', 'refused'), w('p.about', '=', w.ref('d.about'))]),
                  ]),
                ),
            ),
          ),
        )
        .orderBy('d.id')
        .limit(1)
        .executeTakeFirst();
    },

    /** Re-reads a request under its lock (the worker runs under the lease; an operator may have dismissed it). */
    async locked(id: number) {
      return db
        .selectFrom('division_requests')
        .selectAll()
        .where('id', '=', id)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
    },

    /** A create under way: unknown until its answer is recorded. */
    async markUnknown(id: number): Promise<void> {
      await db.updateTable('division_requests').set({ unknown: 1 }).where('id', '=', id).where('state', '=', 'pending').execute();
    },

    async settle(
      id: number,
      change: {
        state: 'pending' | 'refused' | 'sent';
        attempts: number;
        next_at?: number;
        unknown?: number;
        error: string | null;
        sent_at?: number;
      },
      taskId: number | null,
    ): Promise<void> {
      await db.updateTable('division_requests').set(change).where('id', '=', id).execute();
      if (taskId !== null)
        await db
          .updateTable('tasks')
          .set({ division_api_state: change.state, division_api_error: change.state === 'refused' ? change.error : null })
          .where('id', '=', taskId)
          .execute();
    },

    /** The oldest refused request a task's completion caused, or about a thing ("endorsement:12"), locked (none: undefined). */
    async refusedLocked(of: { task: number } | { about: string }) {
      return db
        .selectFrom('division_requests')
        .selectAll()
        .$if('task' in of, (q) => q.where('task_id', '=', (of as { task: number }).task))
        .$if('about' in of, (q) => q.where('about', '=', (of as { about: string }).about))
        .where('state', '=', 'refused')
        .orderBy('id')
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
    },

    /** The refused requests about these things ("endorsement:12"), oldest first. */
    async refusedAbout(abouts: readonly string[]) {
      if (abouts.length === 0) return [];
      return db
        .selectFrom('division_requests')
        .select(['id', 'about', 'error'])
        .where('about', 'in', [...abouts])
        .where('state', '=', 'refused')
        .orderBy('id')
        .execute();
    },

    /** How many requests wait to be sent (refused ones wait for an operator instead). */
    async countPending(): Promise<number> {
      const row = await db
        .selectFrom('division_requests')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('state', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async open() {
      return db.selectFrom('division_requests').selectAll().where('state', 'in', ['pending', 'refused']).orderBy('id').execute();
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('division_requests').where('id', '=', id).execute();
    },
  };
}
