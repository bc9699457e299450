// Members' settings, the choice of mail per kind (set-based over a list of recipients) and the keys
// of the notifications already sent (contract §24).
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import type { Dialect } from '../../core/db/connection.js';
import { chunks } from '../../core/db/chunks.js';
import { MAIL_DEFAULTS, type MailKind, type MemberSettings } from './domain.js';

export interface Recipient {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

export function noticesRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * Holds the member's row until the write ends, so two saves of one member's settings take turns
     * (SQLite's write lock already serialises writers): each reads what the other saved.
     */
    async lockMember(cid: number): Promise<void> {
      if (dialect === 'postgres') await db.selectFrom('users').select('id').where('id', '=', cid).forUpdate().execute();
    },

    /** The stored look and choices of a member (no rows: the defaults). */
    async settingsRows(cid: number) {
      const [look, choices] = await Promise.all([
        db.selectFrom('member_settings').select('look').where('user_id', '=', cid).executeTakeFirst(),
        db.selectFrom('mail_choices').select(['kind', 'enabled']).where('user_id', '=', cid).execute(),
      ]);
      return { look: look?.look, choices };
    },

    /** Saves a member's settings whole. */
    async saveSettings(cid: number, settings: MemberSettings, at: number): Promise<void> {
      await db
        .insertInto('member_settings')
        .values({ user_id: cid, look: settings.look, updated_at: at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ look: settings.look, updated_at: at }))
        .execute();
      await db.deleteFrom('mail_choices').where('user_id', '=', cid).execute();
      await db
        .insertInto('mail_choices')
        .values(Object.entries(settings.mail).map(([kind, on]) => ({ user_id: cid, kind, enabled: on ? 1 : 0 })))
        .execute();
    },

    /**
     * Of these members, those with an address who take mail of this kind (their choice, else the
     * kind's default); `always` skips the choice (a mail that cannot be turned off).
     */
    async recipients(cids: readonly number[], kind: MailKind, always = false): Promise<Recipient[]> {
      const out: Recipient[] = [];
      for (const part of chunks([...new Set(cids)])) {
        let q = db
          .selectFrom('users as u')
          .leftJoin('mail_choices as c', (j) => j.onRef('c.user_id', '=', 'u.id').on('c.kind', '=', kind))
          .select(['u.id', 'u.email', 'u.first_name', 'u.last_name'])
          .where('u.id', 'in', part)
          .where('u.email', 'is not', null)
          .where('u.email', '<>', '');
        if (!always) {
          q = MAIL_DEFAULTS[kind]
            ? q.where((eb) => eb.or([eb('c.enabled', 'is', null), eb('c.enabled', '=', 1)]))
            : q.where('c.enabled', '=', 1);
        }
        for (const r of await q.execute()) out.push({ ...r, email: r.email! });
      }
      return out;
    },

    /** Records the keys not sent before and returns them: the one place "once" is decided. */
    async claim(keys: ReadonlyArray<{ key: string; user_id: number | null }>, at: number): Promise<Set<string>> {
      const claimed = new Set<string>();
      for (const part of chunks([...new Map(keys.map((k) => [k.key, k])).values()])) {
        const rows = await db
          .insertInto('notices_sent')
          .values(part.map((k) => ({ key: k.key, user_id: k.user_id, sent_at: at })))
          .onConflict((oc) => oc.column('key').doNothing())
          .returning('key')
          .execute();
        for (const r of rows) claimed.add(r.key);
      }
      return claimed;
    },
  };
}

export type NoticesRepository = ReturnType<typeof noticesRepository>;
