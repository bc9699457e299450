// Votes of an import (contract §23), by (question, closes_at): a new one is added, a stored one takes
// the file's fields and options (with their counts) and, when the file lists them, its voters. Who
// voted and the counts are written apart, as a ballot writes them: nothing links a voter to an option.
// Set-based: a few statements per chunk of votes.
import type { Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database } from '../../core/db/schema.js';
import { chunks } from '../../core/db/chunks.js';
import type { ImportVote } from './import/plan.js';
import { UNKNOWN_CREATOR } from './import/votes.js';
import { refuseUnknownUsers } from './import-refs.repository.js';
import { keyOf } from './import-rows.repository.js';

export async function importVotes(db: Kysely<Database>, dialect: Dialect, votes: readonly ImportVote[], now: number): Promise<void> {
  if (votes.length === 0) return;
  await refuseUnknownUsers(db, [
    ...votes.flatMap((v) => (v.created_by === null ? [] : [{ id: v.created_by, path: `${v.path}.created_by` }])),
    ...votes.flatMap((v) => (v.voters ?? []).map((x, i) => ({ id: x.user_id, path: `${v.path}.voters[${i}].user_id` }))),
  ]);
  const storedId = new Map<string, number>();
  for (const part of chunks([...new Set(votes.map((v) => v.question))])) {
    // Locked as a change of the vote locks it (PostgreSQL): a ballot cast meanwhile waits, then counts on the imported options.
    const q = db.selectFrom('votes').select(['id', 'question', 'closes_at']).where('question', 'in', part);
    const rows = await (dialect === 'postgres' ? q.forUpdate() : q).execute();
    for (const r of rows) storedId.set(keyOf([r.question, r.closes_at]), r.id);
  }
  const row = (v: ImportVote) => ({
    question: v.question,
    eligibility: v.eligibility,
    closes_at: v.closes_at,
    // Moved history, not news: a vote past its time arrives closed, so no vote.closed is published for it.
    closed_at: v.closed_at ?? (v.closes_at <= now ? v.closes_at : null),
    created_by: v.created_by ?? UNKNOWN_CREATOR,
    created_at: v.created_at ?? now,
    updated_at: v.updated_at ?? v.created_at ?? now,
  });
  const ids: number[] = new Array<number>(votes.length);
  const existing = votes.flatMap((v, i) => {
    const id = storedId.get(keyOf([v.question, v.closes_at]));
    if (id === undefined) return [];
    ids[i] = id;
    return [{ id, ...row(v) }];
  });
  for (const part of chunks(existing)) {
    await db
      .insertInto('votes')
      .values(part)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          eligibility: eb.ref('excluded.eligibility'),
          closed_at: eb.ref('excluded.closed_at'),
          created_by: eb.ref('excluded.created_by'),
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
  const fresh = votes.flatMap((v, i) => (ids[i] === undefined ? [{ v, i }] : []));
  for (const part of chunks(fresh)) {
    const made = await db
      .insertInto('votes')
      .values(part.map(({ v }) => row(v)))
      .returning(['id', 'question', 'closes_at'])
      .execute();
    const idOf = new Map(made.map((r) => [keyOf([r.question, r.closes_at]), r.id]));
    for (const { v, i } of part) ids[i] = idOf.get(keyOf([v.question, v.closes_at]))!;
  }

  // The options (with their counts) are replaced as a whole; the voters where the file lists them.
  for (const part of chunks(ids)) await db.deleteFrom('vote_options').where('vote_id', 'in', part).execute();
  const options = votes.flatMap((v, i) => v.options.map((o, j) => ({ vote_id: ids[i]!, position: j + 1, text: o.text, count: o.count })));
  for (const part of chunks(options)) await db.insertInto('vote_options').values(part).execute();
  const listed = votes.flatMap((v, i) => (v.voters === undefined ? [] : [{ id: ids[i]!, voters: v.voters }]));
  for (const part of chunks(listed.map((l) => l.id))) await db.deleteFrom('vote_voters').where('vote_id', 'in', part).execute();
  const voters = listed.flatMap((l) => l.voters.map((x) => ({ vote_id: l.id, user_id: x.user_id, voted_on: x.voted_on })));
  for (const part of chunks(voters)) await db.insertInto('vote_voters').values(part).execute();
}
