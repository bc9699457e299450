// What the staff pages read about people (contract §17): finding a user by CID or name, and one
// user's stored facts. Everything else they show comes from the other repositories.
import { sql } from 'kysely';
import type { Executor } from '../../core/db/connection.js';

export interface StaffUserRow {
  id: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  rating: number;
  region: string | null;
  division: string | null;
  subdivision: string | null;
  last_login_at: number | null;
}

const COLUMNS = ['id', 'first_name', 'last_name', 'email', 'rating', 'region', 'division', 'subdivision', 'last_login_at'] as const;

/** A LIKE pattern matching `text` anywhere, its own % and _ taken literally (ESCAPE '\'). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function staffRepository(db: Executor) {
  return {
    /** Users whose CID starts with the digits asked, or whose name contains the words; by CID. */
    search(q: string, limit: number): Promise<StaffUserRow[]> {
      const digits = /^\d{1,9}$/.test(q);
      const matches = digits
        ? sql<boolean>`(id = ${Number(q)} or cast(id as varchar(12)) like ${`${q}%`})`
        : sql<boolean>`lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) like ${containing(q.toLowerCase())} escape '\\'`;
      return db.selectFrom('users').select(COLUMNS).where(matches).orderBy('id').limit(limit).execute();
    },

    /** CID -> "First Last" for these users (the lists' names). */
    async names(cids: readonly number[]): Promise<Map<number, string>> {
      const unique = [...new Set(cids)];
      if (unique.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', unique).execute();
      return new Map(rows.map((r) => [r.id, `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || String(r.id)]));
    },

    user(cid: number): Promise<StaffUserRow | undefined> {
      return db.selectFrom('users').select(COLUMNS).where('id', '=', cid).executeTakeFirst();
    },
  };
}

export type StaffRepository = ReturnType<typeof staffRepository>;
