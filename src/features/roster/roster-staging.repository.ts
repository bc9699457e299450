// The roster sync's staging (contract §15): the network's results of a run (roster_staging, marked
// with the run's lease), and the set-based reads that plan its changes from them — counts, leavers
// and changed rows a batch of ids at a time.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database, RosterStagingTable } from '../../core/db/schema.js';
import type { RosterMember, StagedResult, StoredUser } from './domain.js';
import { chunks } from '../../core/db/chunks.js';

/** Users who are members: their column among these values. */
export interface MembershipFilter {
  column: 'division' | 'subdivision';
  values: string[];
}

/** Removes every staged row but those of `runId`: rows of a run that crashed never mix with the next run's. */
async function clearStagingExcept(trx: Kysely<Database>, runId: string): Promise<void> {
  await trx.deleteFrom('roster_staging').where('run_id', '<>', runId).execute();
}

/** Removes the run's staged rows. */
async function clearStaging(trx: Kysely<Database>, runId: string): Promise<void> {
  await trx.deleteFrom('roster_staging').where('run_id', '=', runId).execute();
}

const stagedRow = (runId: string, result: StagedResult): RosterStagingTable => {
  if (result.kind === 'unknown') {
    return {
      run_id: runId,
      id: result.id,
      kind: 'unknown',
      rating: null,
      region: null,
      division: null,
      subdivision: null,
      personal: 0,
      email: null,
      first_name: null,
      last_name: null,
    };
  }
  const m = result.member;
  const personal = m.email !== undefined && m.first_name !== undefined && m.last_name !== undefined;
  return {
    run_id: runId,
    id: m.id,
    kind: result.kind,
    rating: m.rating,
    region: m.region,
    division: m.division,
    subdivision: m.subdivision,
    personal: personal ? 1 : 0,
    email: personal ? (m.email ?? null) : null,
    first_name: personal ? (m.first_name ?? null) : null,
    last_name: personal ? (m.last_name ?? null) : null,
  };
};

/** Stages results of the run; an id staged again takes the later result (as a later subdivision's roster does). */
async function stageResults(trx: Kysely<Database>, runId: string, results: readonly StagedResult[]): Promise<void> {
  // One statement must not touch a row twice (PostgreSQL refuses it): the last result per id.
  const byId = new Map<number, RosterStagingTable>();
  for (const a of results) {
    const row = stagedRow(runId, a);
    byId.delete(row.id);
    byId.set(row.id, row);
  }
  for (const part of chunks([...byId.values()])) {
    await trx
      .insertInto('roster_staging')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['run_id', 'id']).doUpdateSet((eb) => ({
          kind: eb.ref('excluded.kind'),
          rating: eb.ref('excluded.rating'),
          region: eb.ref('excluded.region'),
          division: eb.ref('excluded.division'),
          subdivision: eb.ref('excluded.subdivision'),
          personal: eb.ref('excluded.personal'),
          email: eb.ref('excluded.email'),
          first_name: eb.ref('excluded.first_name'),
          last_name: eb.ref('excluded.last_name'),
        })),
      )
      .execute();
  }
  // A person erased on request (contract §24) keeps the pseudonym until they sign in again: nothing
  // personal of theirs is staged, so the run neither stores nor applies it.
  const ids = [...byId.keys()];
  if (ids.length === 0) return;
  await trx
    .updateTable('roster_staging')
    .set({ personal: 0, email: null, first_name: null, last_name: null })
    .where('run_id', '=', runId)
    .where('id', '>=', Math.min(...ids))
    .where('id', '<=', Math.max(...ids))
    .where('personal', '=', 1)
    .where('id', 'in', trx.selectFrom('users').select('id').where('erased_at', 'is not', null))
    .execute();
}

// Rows staged seconds ago have no PostgreSQL statistics yet, and without them it sorts every staged
// row per batch instead of walking the primary key.
async function refreshStagingStatistics(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`ANALYZE roster_staging`.execute(db);
}

/** Rows the run has staged (of one kind, or all). */
async function countStaged(db: Kysely<Database>, runId: string, kind?: RosterStagingTable['kind']): Promise<number> {
  let q = db
    .selectFrom('roster_staging')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('run_id', '=', runId);
  if (kind !== undefined) q = q.where('kind', '=', kind);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** How many of these ids the run has staged already. */
async function countStagedAmong(db: Kysely<Database>, runId: string, ids: readonly number[]): Promise<number> {
  const row = await db
    .selectFrom('roster_staging')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('run_id', '=', runId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const isMemberRow = (eb: ExpressionBuilder<Database, 'users'>, filter: MembershipFilter): Expression<SqlBool> =>
  eb(`users.${filter.column}`, 'in', filter.values);

const notStaged = (eb: ExpressionBuilder<Database, 'users'>, runId: string): Expression<SqlBool> =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('roster_staging')
        .select('roster_staging.id')
        .where('roster_staging.run_id', '=', runId)
        .whereRef('roster_staging.id', '=', 'users.id'),
    ),
  );

/** The division's members now, and how many the staged roster would remove (left out, or staged as no longer a member). */
async function countMembersAndRemoved(
  db: Kysely<Database>,
  runId: string,
  filter: MembershipFilter,
): Promise<{ members: number; removed: number }> {
  const stagedAsMember = (eb: ExpressionBuilder<Database, 'users'>) =>
    eb.exists(
      eb
        .selectFrom('roster_staging')
        .select('roster_staging.id')
        .where('roster_staging.run_id', '=', runId)
        .whereRef('roster_staging.id', '=', 'users.id')
        .where(`roster_staging.${filter.column}`, 'in', filter.values),
    );
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('members'),
      eb.fn.sum<number | string | null>(eb.case().when(stagedAsMember(eb)).then(0).else(1).end()).as('removed'),
    ])
    .where((eb) => isMemberRow(eb, filter))
    .executeTakeFirstOrThrow();
  return { members: Number(row.members), removed: Number(row.removed ?? 0) };
}

/** The next members (by id, after `afterId`) that the run has staged nothing for. */
async function leaversAfter(
  db: Kysely<Database>,
  runId: string,
  filter: MembershipFilter,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('users.id')
    .where((eb) => eb.and([isMemberRow(eb, filter), notStaged(eb, runId), eb('users.id', '>', afterId)]))
    .orderBy('users.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

type StagedJoin = ExpressionBuilder<Database & { s: RosterStagingTable; u: Database['users'] }, 's' | 'u'>;

/** A staged row that changes its user (none yet, or a given field differs), in the terms of the domain's changeOf. */
export function differsFromUser(eb: StagedJoin): Expression<SqlBool> {
  const differs = (a: 'region' | 'division' | 'subdivision' | 'email' | 'first_name' | 'last_name') =>
    eb(`s.${a}`, 'is distinct from', eb.ref(`u.${a}`));
  return eb.or([
    eb.and([eb('u.id', 'is', null), eb('s.kind', '<>', 'unknown')]),
    eb.and([eb('s.kind', '=', 'unknown'), eb.or([eb('u.division', 'is not', null), eb('u.subdivision', 'is not', null)])]),
    eb.and([
      eb('s.kind', '<>', 'unknown'),
      eb.or([
        eb('s.rating', '<>', eb.ref('u.rating')),
        differs('region'),
        differs('division'),
        differs('subdivision'),
        eb.and([eb('s.personal', '=', 1), eb.or([differs('email'), differs('first_name'), differs('last_name')])]),
      ]),
    ]),
  ]);
}

export interface StagedWithStored {
  result: StagedResult;
  /** The user as stored now; undefined when there is none. */
  stored: StoredUser | undefined;
}

/** The next staged rows after `afterId` that differ from their user: the database compares, so unchanged members are never read. */
async function changedAfter(db: Kysely<Database>, runId: string, afterId: number, limit: number): Promise<StagedWithStored[]> {
  const rows = await db
    .selectFrom('roster_staging as s')
    .leftJoin('users as u', 'u.id', 's.id')
    .select([
      's.id',
      's.kind',
      's.rating',
      's.region',
      's.division',
      's.subdivision',
      's.personal',
      's.email',
      's.first_name',
      's.last_name',
      'u.id as u_id',
      'u.rating as u_rating',
      'u.region as u_region',
      'u.division as u_division',
      'u.subdivision as u_subdivision',
      'u.email as u_email',
      'u.first_name as u_first_name',
      'u.last_name as u_last_name',
    ])
    .where('s.run_id', '=', runId)
    .where('s.id', '>', afterId)
    .where(differsFromUser)
    .orderBy('s.id')
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const stored: StoredUser | undefined =
      r.u_id === null
        ? undefined
        : {
            id: r.u_id,
            rating: r.u_rating!,
            region: r.u_region,
            division: r.u_division,
            subdivision: r.u_subdivision,
            email: r.u_email,
            first_name: r.u_first_name,
            last_name: r.u_last_name,
          };
    if (r.kind === 'unknown') return { result: { kind: 'unknown', id: r.id }, stored };
    const member: RosterMember = { id: r.id, rating: r.rating!, region: r.region, division: r.division, subdivision: r.subdivision };
    if (r.personal === 1) Object.assign(member, { email: r.email, first_name: r.first_name, last_name: r.last_name });
    return { result: { kind: r.kind, member }, stored };
  });
}

export function rosterStagingRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    clearExcept: (runId: string) => clearStagingExcept(db, runId),
    clear: (runId: string) => clearStaging(db, runId),
    stage: (runId: string, results: readonly StagedResult[]) => stageResults(db, runId, results),
    refreshStatistics: () => refreshStagingStatistics(db, dialect),
    count: (runId: string, kind?: RosterStagingTable['kind']) => countStaged(db, runId, kind),
    countAmong: (runId: string, ids: readonly number[]) => countStagedAmong(db, runId, ids),
    countMembersAndRemoved: (runId: string, filter: MembershipFilter) => countMembersAndRemoved(db, runId, filter),
    leaversAfter: (runId: string, filter: MembershipFilter, afterId: number, limit: number) =>
      leaversAfter(db, runId, filter, afterId, limit),
    changedAfter: (runId: string, afterId: number, limit: number) => changedAfter(db, runId, afterId, limit),
  };
}

export type RosterStagingRepository = ReturnType<typeof rosterStagingRepository>;
