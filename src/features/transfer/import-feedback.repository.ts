// Feedback of an import (contract §23), by id when given: a stored feedback takes the fields a
// record gives, a new one needs its sender, text and time; a given list of comments replaces the
// stored ones (a comment's author is any CID, as stored: a comment outlives its author's row).
// Set-based; nothing is published, mailed or forwarded (an import is history).
import type { Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database } from '../../core/db/schema.js';
import { chunks } from '../../core/db/chunks.js';
import { FEEDBACK_REQUIRED, type ImportFeedback } from './import/feedback.js';
import { ImportError } from './import/plan.js';
import { knownUsers, rowsById, writeById } from './import-tasks.repository.js';
import type { Row } from './import-rows.repository.js';

export async function importFeedback(
  db: Kysely<Database>,
  dialect: Dialect,
  feedback: readonly ImportFeedback[],
  positionId: (callsign: string, path: string) => number,
  now: number,
): Promise<void> {
  if (feedback.length === 0) return;
  const stored = await rowsById(
    db,
    'feedback',
    feedback.map((f) => f.id),
  );
  const people = await knownUsers(
    db,
    feedback.flatMap((f) => (f.set.sender_id === undefined ? [] : [f.set.sender_id])),
  );
  const rows = feedback.map((f): Row => {
    const before = f.id === null ? undefined : stored.get(f.id);
    if (!before)
      for (const field of FEEDBACK_REQUIRED)
        if (f.set[field] === undefined)
          throw new ImportError(
            `${f.path}.${field}: is required${f.id === null ? ' (a feedback without an id is always new)' : `, as feedback ${f.id} does not exist yet`}`,
          );
    if (f.set.sender_id !== undefined && !people.has(f.set.sender_id))
      throw new ImportError(`${f.path}.sender_id: unknown user ${f.set.sender_id}`);
    const { position, actioned, ...columns } = f.set;
    const row: Row = {
      ...(before ?? { id: f.id, controller: null, position_id: null, actioned: 0 }),
      ...columns,
      updated_at: f.set.updated_at ?? now,
    };
    if (position !== undefined) row.position_id = position === null ? null : positionId(position, `${f.path}.position`);
    if (actioned !== undefined) row.actioned = actioned ? 1 : 0;
    return row;
  });
  const ids = await writeById(db, dialect, 'feedback', rows);
  const replaced = feedback.flatMap((f, i) => (f.comments === undefined ? [] : [{ id: ids[i]!, comments: f.comments }]));
  for (const part of chunks(replaced.map((r) => r.id))) await db.deleteFrom('feedback_comments').where('feedback_id', 'in', part).execute();
  const comments = replaced.flatMap((r) =>
    r.comments.map((c) => ({ feedback_id: r.id, author_id: c.author_id, text: c.text, created_at: c.created_at })),
  );
  for (const part of chunks(comments)) await db.insertInto('feedback_comments').values(part).execute();
}
