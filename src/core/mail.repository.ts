// The mail outbox: mail to be sent to members, written in the change's transaction and sent after it.
import type { Dialect, Executor } from './db/connection.js';
import type { MailOutboxTable } from './db/schema.js';
import type { Insertable, Selectable } from 'kysely';
import { rowClaim } from './db/predicates.js';

export type MailRow = Selectable<MailOutboxTable>;
export type NewMail = Pick<Insertable<MailOutboxTable>, 'to_address' | 'subject' | 'text_body' | 'html_body'>;

export function mailRepository(db: Executor, dialect: Dialect) {
  return {
    async add(mails: readonly NewMail[], at: number): Promise<void> {
      if (mails.length === 0) return;
      await db
        .insertInto('mail_outbox')
        .values(mails.map((m) => ({ ...m, created_at: at, next_attempt_at: at })))
        .execute();
    },

    /** Whether any mail is due: a read, so an idle sender takes no write lock to find nothing. */
    async anyDue(now: number): Promise<boolean> {
      const row = await db
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Claims the next due mail until `leaseUntil`, counting an attempt; run in a write transaction (see rowClaim.pick). */
    claimNext(now: number, leaseUntil: number): Promise<MailRow | undefined> {
      const due = db
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where(rowClaim.free(now, 'mail_outbox'))
        .orderBy('next_attempt_at');
      return db
        .updateTable('mail_outbox')
        .set((eb) => ({ lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', rowClaim.pick(due, dialect, 1))
        .returningAll()
        .executeTakeFirst();
    },

    async sent(id: number, at: number): Promise<void> {
      await db.updateTable('mail_outbox').set({ sent_at: at, lease_until: null, last_error: null }).where('id', '=', id).execute();
    },

    /** A failed attempt: due again at `retryAt`, or given up (retryAt null). */
    async failed(id: number, at: number, error: string, retryAt: number | null): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set(
          retryAt === null
            ? { failed_at: at, lease_until: null, last_error: error }
            : { next_attempt_at: retryAt, lease_until: null, last_error: error },
        )
        .where('id', '=', id)
        .execute();
    },
  };
}

export type MailRepository = ReturnType<typeof mailRepository>;
