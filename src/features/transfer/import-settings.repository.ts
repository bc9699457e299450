// Members' settings of an import (contract §24), by user: the look (kept when the record does not
// give it) and the mail kinds a record names; set-based, a chunk per statement.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { chunks } from '../../core/db/chunks.js';
import type { ImportSettings } from './import/plan.js';
import { refuseUnknownUsers } from './import-refs.repository.js';

export async function importSettings(db: Kysely<Database>, settings: readonly ImportSettings[], now: number): Promise<void> {
  if (settings.length === 0) return;
  await refuseUnknownUsers(
    db,
    settings.map((s) => ({ id: s.user_id, path: `${s.path}.user_id` })),
  );
  // Those giving a look and those keeping the stored one are two statements: one upsert sets the same columns for every row.
  for (const withLook of [true, false]) {
    const rows = settings.filter((s) => (s.look !== undefined) === withLook);
    for (const part of chunks(rows)) {
      await db
        .insertInto('member_settings')
        .values(part.map((s) => ({ user_id: s.user_id, look: s.look ?? 'device', updated_at: s.updated_at ?? now })))
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({ updated_at: sql`excluded.updated_at`, ...(withLook ? { look: sql`excluded.look` } : {}) }),
        )
        .execute();
    }
  }
  const choices = settings.flatMap((s) => s.mail.map(([kind, on]) => ({ user_id: s.user_id, kind, enabled: on ? 1 : 0 })));
  for (const part of chunks(choices)) {
    await db
      .insertInto('mail_choices')
      .values(part)
      .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ enabled: sql`excluded.enabled` }))
      .execute();
  }
}
