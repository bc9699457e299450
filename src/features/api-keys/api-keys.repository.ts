import { sql } from 'kysely';
import type { Executor } from '../../core/db/connection.js';
import type { ApiKeyRow } from '../../core/db/schema.js';

export type NewApiKey = Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>;

/** Keys per statement of touch(): two parameters each. */
const TOUCH_CHUNK = 500;

export function apiKeysRepository(db: Executor) {
  return {
    async insert(key: NewApiKey): Promise<void> {
      await db
        .insertInto('api_keys')
        .values({ ...key, last_used_at: null, revoked_at: null })
        .execute();
    },
    findById(id: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The key whose id is ref and the key whose name is ref: none, one of them, or two different keys. */
    async findByIdAndByName(ref: string): Promise<{ byId?: ApiKeyRow; byName?: ApiKeyRow }> {
      const rows = await db
        .selectFrom('api_keys')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', ref), eb('name', '=', ref)]))
        .execute();
      return { byId: rows.find((r) => r.id === ref), byName: rows.find((r) => r.name === ref) };
    },
    /** Of the given ids, those of keys neither revoked nor expired at `now`: one statement for all. */
    async validIds(ids: string[], now: number): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('api_keys')
        .select('id')
        .where('id', 'in', ids)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .execute();
      return rows.map((r) => r.id);
    },
    nameExists(name: string): Promise<boolean> {
      return db
        .selectFrom('api_keys')
        .select('id')
        .where('name', '=', name)
        .executeTakeFirst()
        .then((r) => r !== undefined);
    },
    list(): Promise<ApiKeyRow[]> {
      return db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
    },
    /** Revokes a live key; false when it was revoked already. */
    async revoke(id: string, at: number): Promise<boolean> {
      const r = await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },
    /** Writes batched last-used times, never moving one backwards: one statement per few hundred keys. */
    async touch(lastUsed: Map<string, number>): Promise<void> {
      const entries = [...lastUsed];
      for (let i = 0; i < entries.length; i += TOUCH_CHUNK) {
        const rows = entries.slice(i, i + TOUCH_CHUNK).map(([id, at]) => sql`(${id}, CAST(${at} AS bigint))`);
        await sql`WITH used(id, at) AS (VALUES ${sql.join(rows)})
          UPDATE api_keys SET last_used_at = used.at FROM used
          WHERE api_keys.id = used.id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at < used.at)`.execute(db);
      }
    },
  };
}

/** True when err is the database refusing a second key with the same name (not an id collision). */
export function isDuplicateKeyName(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; detail?: string; message?: string } | null | undefined;
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE') return /\bapi_keys\.name\b/.test(e.message ?? '');
  if (e?.code === '23505') return e.constraint === 'api_keys_name_key' || /^Key \(name\)=/.test(e.detail ?? '');
  return false;
}

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
