import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database, NetworkPushesTable } from '../../core/db/schema.js';
import { rowClaim } from '../../core/db/claims.js';
import { lastEventSeq } from '../events/predicates.js';
import { networkCursor } from '../events/predicates.js';
import { pendingPush } from './predicates.js';

/** A push claimed by one pusher: the row as the claim left it. */
export interface ClaimedPush {
  booking_id: number;
  version: number;
  attempts: number;
  posted: string | null;
}

/** A pending or refused push as `network:status` shows it. */
export interface OpenPush {
  booking_id: number;
  callsign: string | null;
  status: 'pending' | 'refused';
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  last_status: number | null;
  last_error: string | null;
  updated_at: number;
}

/** The end of a push, written only while the claim is still this pusher's. */
export interface PushResult {
  status: NetworkPushesTable['status'];
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  /** Keep attempts counting (a retry) or start again from none (done, or lost and resent now). */
  resetAttempts: boolean;
}

/** Events taken from the outbox into pushes at most per statement: a long backlog goes in batches. */
const QUEUE_BATCH = 2_000;

/** Works on the base connection or on a transaction alike. */
export function networkPushesRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * Owes the network the current state of each booking changed by events not yet taken (up to a batch;
     * `more` when one was left), in one statement. An existing row gets a new version, due now. Run in a
     * write transaction; on PostgreSQL one process at a time.
     */
    async queueChanges(now: number): Promise<{ more: boolean }> {
      const cursor = await db
        .selectFrom('outbox_cursors')
        .select(['seq', lastEventSeq.as('high')])
        .where('name', '=', 'network')
        .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked())
        .executeTakeFirst();
      if (cursor === undefined || cursor.high <= cursor.seq) return { more: false };
      const { seq: low, high } = cursor;
      const upper = Math.min(high, low + QUEUE_BATCH);
      await sql`INSERT INTO network_pushes (booking_id, status, version, attempts, next_attempt_at, updated_at, pending_since)
        SELECT e.booking_id, 'pending', 1, 0, ${now}, ${now}, ${now} FROM events e
        WHERE e.seq > ${low} AND e.seq <= ${upper} AND e.network_push = 1
          AND EXISTS (SELECT 1 FROM bookings b WHERE b.id = e.booking_id)
        GROUP BY e.booking_id
        ON CONFLICT (booking_id) DO UPDATE SET status = 'pending', version = network_pushes.version + 1,
          attempts = 0, next_attempt_at = ${now}, updated_at = ${now},
          pending_since = CASE WHEN network_pushes.status = 'pending' THEN network_pushes.pending_since ELSE ${now} END`.execute(db);
      await db.updateTable('outbox_cursors').set({ seq: upper }).where('name', '=', 'network').execute();
      return { more: upper < high };
    },

    /**
     * What a run has to do, in one read (an idle pusher takes no write lock): `queue`, the outbox
     * holds events the network sync has not looked at (two seeks, however many came); `due`, a push is due.
     */
    async pendingWork(now: number): Promise<{ queue: boolean; due: boolean }> {
      const row = await db
        .selectNoFrom((eb) => [
          eb
            .exists(db.selectFrom('outbox_cursors').select('seq').where('name', '=', 'network').where('seq', '<', lastEventSeq))
            .as('queue'),
          eb
            .exists(db.selectFrom('network_pushes').select('booking_id').where(pendingPush).where(rowClaim.free(now, 'network_pushes')))
            .as('due'),
        ])
        .executeTakeFirstOrThrow();
      // SQLite returns 0 or 1, PostgreSQL a boolean.
      return { queue: Boolean(row.queue), due: Boolean(row.due) };
    },

    /**
     * Claims up to `limit` due pushes for `owner` until `leaseUntil`, counting an attempt for each.
     * The caller runs this in a write transaction (see rowClaim.pick).
     */
    async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedPush[]> {
      const due = db
        .selectFrom('network_pushes')
        .select('booking_id')
        .where(pendingPush)
        .where(rowClaim.free(now, 'network_pushes'))
        .orderBy('next_attempt_at');
      return db
        .updateTable('network_pushes')
        .set((eb) => ({ lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where('booking_id', 'in', rowClaim.pick(due, dialect, limit))
        .returning(['booking_id', 'version', 'attempts', 'posted'])
        .execute();
    },

    /** Notes the body of a POST about to be sent, while the claim is still this pusher's. */
    async notePosted(bookingId: number, owner: string, posted: string | null): Promise<boolean> {
      const r = await db
        .updateTable('network_pushes')
        .set({ posted })
        .where('booking_id', '=', bookingId)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    /**
     * Ends a claim. The result is taken only if no change came meanwhile (same version); after
     * a newer change the row stays pending and due now, so the newer state is pushed next.
     */
    async finish(bookingId: number, owner: string, version: number, result: PushResult, now: number): Promise<void> {
      const ended = {
        lease_owner: null,
        lease_until: null,
        last_status: result.last_status,
        last_error: result.last_error,
        updated_at: now,
      };
      const r = await db
        .updateTable('network_pushes')
        .set({ ...ended, status: result.status, next_attempt_at: result.next_attempt_at, ...(result.resetAttempts ? { attempts: 0 } : {}) })
        .where('booking_id', '=', bookingId)
        .where('lease_owner', '=', owner)
        .where('version', '=', version)
        .executeTakeFirst();
      if (r.numUpdatedRows > 0n) return;
      // A newer change came while this push was under way: push the booking's state again, now.
      await db
        .updateTable('network_pushes')
        .set({ ...ended, status: 'pending', next_attempt_at: now })
        .where('booking_id', '=', bookingId)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** Lets go of claims without counting them (a pusher stopping). */
    async release(bookingIds: readonly number[], owner: string): Promise<void> {
      if (bookingIds.length === 0) return;
      await db
        .updateTable('network_pushes')
        .set((eb) => ({ lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1) }))
        .where('booking_id', 'in', [...bookingIds])
        .where('lease_owner', '=', owner)
        .execute();
    },

    /**
     * Records the network's id of a booking (not a change of the booking: updated_at stays), while its claim is still `owner`'s: the push row is
     * held first (PostgreSQL), so a pusher that took the claim over after a lapsed lease either
     * writes after this or is seen here. False, and nothing written, when the claim was lost.
     */
    async setNetworkId(bookingId: number, networkId: string | null, owner: string): Promise<boolean> {
      const held = await db
        .selectFrom('network_pushes')
        .select('booking_id')
        .where('booking_id', '=', bookingId)
        .where('lease_owner', '=', owner)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!held) return false;
      await db.updateTable('bookings').set({ network_booking: networkId }).where('id', '=', bookingId).execute();
      return true;
    },

    /**
     * Pending and refused pushes, refused first, then by booking. Changes still waiting in the
     * outbox count as pending pushes (not yet attempted), as they will be once taken.
     */
    async open(): Promise<OpenPush[]> {
      const [rows, unqueued] = await Promise.all([
        db
          .selectFrom('network_pushes as n')
          .leftJoin('bookings as b', 'b.id', 'n.booking_id')
          .leftJoin('positions as p', 'p.id', 'b.position_id')
          .select([
            'n.booking_id',
            'p.callsign',
            'n.status',
            'n.attempts',
            'n.next_attempt_at',
            'n.lease_until',
            'n.last_status',
            'n.last_error',
            'n.updated_at',
          ])
          .where('n.status', 'in', ['pending', 'refused'])
          .execute() as Promise<OpenPush[]>,
        db
          .selectFrom('events as e')
          .innerJoin('bookings as b', 'b.id', 'e.booking_id')
          .leftJoin('positions as p', 'p.id', 'b.position_id')
          .select((eb) => ['b.id as booking_id', 'p.callsign', eb.fn.min('e.created_at').as('at')])
          .where('e.seq', '>', networkCursor)
          .where('e.network_push', '=', 1)
          .groupBy(['b.id', 'p.callsign'])
          .execute(),
      ]);
      const byBooking = new Map(rows.map((r) => [r.booking_id, r]));
      for (const o of unqueued) {
        const at = o.at;
        const known = byBooking.get(o.booking_id);
        if (known) known.status = 'pending';
        else
          byBooking.set(o.booking_id, {
            booking_id: o.booking_id,
            callsign: o.callsign,
            status: 'pending',
            attempts: 0,
            next_attempt_at: at,
            lease_until: null,
            last_status: null,
            last_error: null,
            updated_at: at,
          });
      }
      return [...byBooking.values()].sort((a, b) =>
        a.status === b.status ? a.booking_id - b.booking_id : a.status === 'refused' ? -1 : 1,
      );
    },

    status(bookingId: number): Promise<{ status: NetworkPushesTable['status'] } | undefined> {
      return db.selectFrom('network_pushes').select('status').where('booking_id', '=', bookingId).executeTakeFirst();
    },

    /** A refused push becomes pending and due now; false when it was not refused. */
    async retryRefused(bookingId: number, now: number): Promise<boolean> {
      const r = await db
        .updateTable('network_pushes')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now, updated_at: now, pending_since: now })
        .where('booking_id', '=', bookingId)
        .where('status', '=', 'refused')
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },
  };
}

export type NetworkPushesRepository = ReturnType<typeof networkPushesRepository>;
