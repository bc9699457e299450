// One-time links of trainings (contract §20): stored by the hash of their token only.
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../core/db/connection.js';
import type { TrainingLinksTable } from '../../core/db/schema.js';

export type LinkRow = Selectable<TrainingLinksTable>;

export function trainingLinksRepository(db: Executor) {
  return {
    async add(row: Insertable<TrainingLinksTable>): Promise<LinkRow> {
      return db.insertInto('training_links').values(row).returningAll().executeTakeFirstOrThrow();
    },

    /** The link of a token's hash, used or not. */
    async byHash(tokenHash: string): Promise<LinkRow | null> {
      return (await db.selectFrom('training_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()) ?? null;
    },

    /**
     * Uses the link up, if it is still unused and unexpired at `at`: one statement, so of two saves
     * at once only one gets the link (the other finds nothing to update).
     */
    async useUp(id: number, at: number, by: number): Promise<boolean> {
      const result = await db
        .updateTable('training_links')
        .set({ used_at: at, used_by: by })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
