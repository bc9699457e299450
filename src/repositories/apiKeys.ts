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
    findByIdOrName(ref: string): Promise<ApiKeyRow | undefined> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', ref), eb('name', '=', ref)]))
        .executeTakeFirst();
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

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
