import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database } from '../db/schema.js';

export type NewApiKey = Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>;

export function apiKeysRepository(db: Kysely<Database>) {
  return {
    async insert(key: NewApiKey): Promise<void> {
      await db.insertInto('api_keys').values({ ...key, last_used_at: null, revoked_at: null }).execute();
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
    async revoke(id: string, at: number): Promise<void> {
      await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    /** Writes batched last-used times; never moves a time backwards. */
    async touch(lastUsed: Map<string, number>): Promise<void> {
      if (lastUsed.size === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const [id, at] of lastUsed) {
          await trx
            .updateTable('api_keys')
            .set({ last_used_at: at })
            .where('id', '=', id)
            .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
            .execute();
        }
      });
    },
  };
}

/** True when err is the database refusing a second key with the same name (not an id collision). */
export function isDuplicateKeyName(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; detail?: string; message?: string };
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE') return /\bapi_keys\.name\b/.test(e.message ?? '');
  if (e?.code === '23505') return e.constraint === 'api_keys_name_key' || /^Key \(name\)=/.test(e.detail ?? '');
  return false;
}

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
