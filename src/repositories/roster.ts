// The roster sync's writes: a page of changes written set-based with its audit entries, in the
// caller's transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type AuditEntry, userTarget } from '../domain/audit/index.js';
import type { StoredUser, UserChange } from '../domain/network/roster.js';
import { appendAudit } from './audit.js';
import { chunks } from './import-rows.js';

/**
 * Writes the changes (each the whole row as it becomes) with one audit entry each (actor
 * `roster`): one upsert per few hundred users, never one statement per user.
 */
export async function applyUserChanges(
  trx: Kysely<Database>,
  changes: ReadonlyArray<{ change: UserChange; row: StoredUser }>,
  now: number,
): Promise<void> {
  for (const part of chunks([...changes])) {
    await trx
      .insertInto('users')
      .values(part.map(({ row }) => ({ ...row, created_at: now, updated_at: now })))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          email: eb.ref('excluded.email'),
          first_name: eb.ref('excluded.first_name'),
          last_name: eb.ref('excluded.last_name'),
          rating: eb.ref('excluded.rating'),
          region: eb.ref('excluded.region'),
          division: eb.ref('excluded.division'),
          subdivision: eb.ref('excluded.subdivision'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
  const entries: AuditEntry[] = changes.map(({ change }) => ({
    at: now,
    actor: { kind: 'roster' },
    action: change.before === null ? 'user.create' : 'user.update',
    target: userTarget(change.id),
    before: change.before,
    after: change.after,
  }));
  await appendAudit(trx, entries);
}
