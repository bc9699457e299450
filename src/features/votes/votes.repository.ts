// Votes (contract §23): the only SQL of the feature. A ballot is two statements that name no
// option and no member together: a row in vote_voters (member, day) and count + 1 on the option.
import type { Dialect, Executor } from '../../core/db/connection.js';
import type { VoteEligibility } from '../../core/db/schema.js';

export interface VoteRow {
  id: number;
  question: string;
  eligibility: VoteEligibility;
  closes_at: number;
  closed_at: number | null;
  created_by: number;
  /** Ballots cast so far. */
  ballots: number;
}

export interface OptionRow {
  id: number;
  vote_id: number;
  position: number;
  text: string;
  count: number;
}

/** What eligibility is judged on: the user's membership and whether they are ATC-active in some area. */
export interface VoterFacts {
  division: string | null;
  subdivision: string | null;
  active: boolean;
}

/** A second ballot of one member: the primary key of vote_voters. */
export function isSecondBallot(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null | undefined;
  return (
    e?.code === '23505' || (e?.code ?? '').startsWith('SQLITE_CONSTRAINT_PRIMARYKEY') || (e?.message ?? '').includes('vote_voters.vote_id')
  );
}

export function votesRepository(db: Executor, dialect: Dialect) {
  const votes = () =>
    db
      .selectFrom('votes as v')
      .select(['v.id', 'v.question', 'v.eligibility', 'v.closes_at', 'v.closed_at', 'v.created_by'])
      .select((eb) =>
        eb
          .selectFrom('vote_voters as b')
          .whereRef('b.vote_id', '=', 'v.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('ballots'),
      );
  const numbered = (rows: Array<Omit<VoteRow, 'ballots'> & { ballots: number | string | null }>): VoteRow[] =>
    rows.map((r) => ({ ...r, ballots: Number(r.ballots ?? 0) }));
  return {
    /** Every vote, newest closing first. */
    async list(): Promise<VoteRow[]> {
      return numbered(await votes().orderBy('v.closes_at', 'desc').orderBy('v.id', 'desc').execute());
    },

    async find(id: number): Promise<VoteRow | undefined> {
      return numbered(await votes().where('v.id', '=', id).execute())[0];
    },

    /** The options of these votes, in order. */
    options(voteIds: readonly number[]): Promise<OptionRow[]> {
      return db
        .selectFrom('vote_options')
        .select(['id', 'vote_id', 'position', 'text', 'count'])
        .where('vote_id', 'in', [...voteIds, -1])
        .orderBy('vote_id')
        .orderBy('position')
        .execute();
    },

    /** The votes among these in which the member has voted. */
    async votedIn(cid: number, voteIds: readonly number[]): Promise<Set<number>> {
      const rows = await db
        .selectFrom('vote_voters')
        .select('vote_id')
        .where('user_id', '=', cid)
        .where('vote_id', 'in', [...voteIds, -1])
        .execute();
      return new Set(rows.map((r) => r.vote_id));
    },

    async voterFacts(cid: number): Promise<VoterFacts | undefined> {
      const row = await db
        .selectFrom('users as u')
        .select(['u.division', 'u.subdivision'])
        .select((eb) =>
          eb
            .exists(
              eb.selectFrom('user_area_activity as a').select('a.user_id').whereRef('a.user_id', '=', 'u.id').where('a.active', '=', 1),
            )
            .as('active'),
        )
        .where('u.id', '=', cid)
        .executeTakeFirst();
      return row && { division: row.division, subdivision: row.subdivision, active: Boolean(row.active) };
    },

    /**
     * The vote, locked against a change or its closing until this transaction ends: shared by
     * ballots (which run side by side), exclusive for a change or the closing (PostgreSQL; SQLite's
     * one writer serialises them anyway).
     */
    async lock(
      id: number,
      mode: 'ballot' | 'change',
    ): Promise<{ id: number; closes_at: number; closed_at: number | null; eligibility: VoteEligibility } | undefined> {
      const q = db.selectFrom('votes').select(['id', 'closes_at', 'closed_at', 'eligibility']).where('id', '=', id);
      if (dialect !== 'postgres') return q.executeTakeFirst();
      return (mode === 'ballot' ? q.forShare() : q.forUpdate()).executeTakeFirst();
    },

    async add(
      row: { question: string; eligibility: VoteEligibility; closes_at: number; created_by: number; at: number },
      options: readonly string[],
    ) {
      const { at, ...values } = row;
      const made = await db
        .insertInto('votes')
        .values({ ...values, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('vote_options')
        .values(options.map((text, i) => ({ vote_id: made.id, position: i + 1, text })))
        .execute();
      return made.id;
    },

    async update(
      id: number,
      row: { question: string; eligibility: VoteEligibility; closes_at: number; at: number },
      options: readonly string[],
    ) {
      const { at, ...values } = row;
      await db
        .updateTable('votes')
        .set({ ...values, updated_at: at })
        .where('id', '=', id)
        .execute();
      await db.deleteFrom('vote_options').where('vote_id', '=', id).execute();
      await db
        .insertInto('vote_options')
        .values(options.map((text, i) => ({ vote_id: id, position: i + 1, text })))
        .execute();
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('votes').where('id', '=', id).execute();
    },

    /** Records that the member voted, on this day; a second ballot fails on the primary key. */
    async addVoter(voteId: number, cid: number, day: string): Promise<void> {
      await db.insertInto('vote_voters').values({ vote_id: voteId, user_id: cid, voted_on: day }).execute();
    },

    /** One more ballot for the option; false when the option is not the vote's. */
    async count(voteId: number, optionId: number): Promise<boolean> {
      const done = await db
        .updateTable('vote_options')
        .set((eb) => ({ count: eb('count', '+', 1) }))
        .where('vote_id', '=', voteId)
        .where('id', '=', optionId)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    /** The votes past their closing time not yet closed, locked so only one transaction closes each. */
    async dueToClose(now: number): Promise<Array<{ id: number; question: string; closes_at: number }>> {
      const q = db
        .selectFrom('votes')
        .select(['id', 'question', 'closes_at'])
        .where('closed_at', 'is', null)
        .where('closes_at', '<=', now)
        .orderBy('id');
      return dialect === 'postgres' ? q.forUpdate().execute() : q.execute();
    },

    async markClosed(ids: readonly number[], at: number): Promise<void> {
      await db
        .updateTable('votes')
        .set({ closed_at: at })
        .where('id', 'in', [...ids, -1])
        .where('closed_at', 'is', null)
        .execute();
    },
  };
}

export type VotesRepository = ReturnType<typeof votesRepository>;
