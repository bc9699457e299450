// user:erase's statements (contract §24), in the erase's one transaction: what names a person is
// removed or replaced, set-based, whatever the number of rows. Free text others wrote (reports,
// comments) is not searched: it is theirs, and staff are told so (docs/notifications.md).
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database } from '../../core/db/schema.js';

/** What a LIKE pattern matches literally (`\` is the escape character). */
const literal = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const PSEUDONYM = 'Anonymous';

export interface Person {
  id: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  erased_at: number | null;
}

export function eraseRepository(db: Kysely<Database>, dialect: Dialect) {
  const contains = (column: 'body' | 'text_body' | 'subject', text: string) =>
    sql<boolean>`${sql.ref(column)} LIKE ${literal(text)} ESCAPE '\\'`;
  return {
    /** The person, their row held to the end of the transaction on PostgreSQL (SQLite writes one at a time). */
    async lockedPerson(cid: number): Promise<Person | undefined> {
      let q = db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email', 'erased_at']).where('id', '=', cid);
      if (dialect === 'postgres') q = q.forUpdate();
      return q.executeTakeFirst();
    },

    /** The names become the pseudonym; address gone; marked so the roster sync and the data feed leave it. */
    async pseudonymise(cid: number, at: number): Promise<void> {
      await db
        .updateTable('users')
        .set({ first_name: PSEUDONYM, last_name: null, email: null, erased_at: at, updated_at: at })
        .where('id', '=', cid)
        .execute();
      await db.updateTable('atc_sessions').set({ name: null }).where('cid', '=', cid).where('name', 'is not', null).execute();
      await db.deleteFrom('roster_staging').where('id', '=', cid).execute();
      for (const table of ['member_settings', 'mail_choices', 'member_calendars', 'sessions'] as const)
        await db.deleteFrom(table).where('user_id', '=', cid).execute();
    },

    /** Stored events naming the person (a booking's holder), with their webhook deliveries; returns how many. */
    async deleteEventsNaming(fullName: string): Promise<number> {
      const named = db
        .selectFrom('events')
        .select('id')
        .where(contains('body', JSON.stringify(fullName)));
      await db.deleteFrom('webhook_attempts').where('event_id', 'in', named).execute();
      await db.deleteFrom('webhook_deliveries').where('event_id', 'in', named).execute();
      const r = await db
        .deleteFrom('events')
        .where(contains('body', JSON.stringify(fullName)))
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** Mail to the person's address or naming them, sent or waiting; returns how many. */
    async deleteMailNaming(fullName: string, email: string | null): Promise<number> {
      const r = await db
        .deleteFrom('mail_outbox')
        .where((eb) =>
          eb.or([
            ...(email === null ? [] : [eb('to_address', '=', email)]),
            ...(fullName === '' ? [] : [contains('text_body', fullName), contains('subject', fullName)]),
          ]),
        )
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /**
     * The audit log keeps the person's CID, never their name or address: the actor's name goes, and
     * entries about them (sign-ins, roster changes) get the pseudonym for their names.
     */
    async scrubAudit(cid: number, person: Person): Promise<void> {
      await db.updateTable('audit_log').set({ actor_name: null }).where('actor', '=', `member:${cid}`).execute();
      await db.updateTable('training_timeline').set({ actor_name: null }).where('actor', '=', `member:${cid}`).execute();
      const swaps: Array<[string, string]> = [];
      if (person.first_name) swaps.push([JSON.stringify(person.first_name), JSON.stringify(PSEUDONYM)]);
      if (person.last_name) swaps.push([JSON.stringify(person.last_name), 'null']);
      if (person.email) swaps.push([JSON.stringify(person.email), 'null']);
      if (swaps.length === 0) return;
      const scrubbed = (column: 'before' | 'after') =>
        swaps.reduce((text, [from, to]) => sql<string>`replace(${text}, ${from}, ${to})`, sql<string>`${sql.ref(column)}`);
      await db
        .updateTable('audit_log')
        .set({ before: scrubbed('before'), after: scrubbed('after') })
        .where((eb) => eb.or([eb('target', '=', `user:${cid}`), eb('actor', '=', `member:${cid}`)]))
        .execute();
    },

    /** --delete: the person's rows go (their user row stays as the pseudonymised mark, with the audit log). */
    async deleteRows(cid: number, keep: readonly number[]): Promise<void> {
      const trainings = db.selectFrom('trainings').select('id').where('user_id', '=', cid);
      await db.deleteFrom('tasks').where('training_id', 'in', trainings).execute();
      await db.deleteFrom('tasks').where('subject_user_id', '=', cid).execute();
      await db.deleteFrom('trainings').where('user_id', '=', cid).execute();
      await db.deleteFrom('endorsements').where('user_id', '=', cid).execute();
      await db.deleteFrom('roles').where('user_id', '=', cid).execute();
      await db.deleteFrom('feedback').where('sender_id', '=', cid).execute();
      await db.deleteFrom('sweatbox_sessions').where('user_id', '=', cid).execute();
      await db.deleteFrom('atc_sessions').where('cid', '=', cid).execute();
      await db.deleteFrom('user_area_activity').where('user_id', '=', cid).execute();
      await db.deleteFrom('training_mentors').where('user_id', '=', cid).execute();
      // A booking this erase cancelled keeps its row until the network has heard of it.
      await db
        .deleteFrom('bookings')
        .where('user_id', '=', cid)
        .where('id', 'not in', [...keep, -1])
        .execute();
    },
  };
}
