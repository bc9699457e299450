import type { Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database, NetworkPushesTable } from '../db/schema.js';
import { claimable } from './leased-claim.js';
import { dueAndUnleased, pendingPush } from './predicates.js';

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

/** Works on the base connection or on a transaction alike. */
export function networkPushesRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * Owes the network the current state of these bookings: one statement for the set. A row
     * already there is bumped to a new version and due now; a push under way keeps its lease and
     * finds, when it ends, that its version is no longer the latest.
     */
    async markChanged(bookingIds: readonly number[], now: number): Promise<void> {
      if (bookingIds.length === 0) return;
      await db
        .insertInto('network_pushes')
        .values(
          [...new Set(bookingIds)].map((booking_id) => ({
            booking_id,
            status: 'pending' as const,
            version: 1,
            attempts: 0,
            next_attempt_at: now,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.column('booking_id').doUpdateSet((eb) => ({
            status: 'pending' as const,
            version: eb('network_pushes.version', '+', 1),
            attempts: 0,
            next_attempt_at: now,
            updated_at: now,
          })),
        )
        .execute();
    },

    /** Whether any push is due: a read, so an idle pusher takes no write lock to find nothing. */
    async anyDue(now: number): Promise<boolean> {
      const row = await db
        .selectFrom('network_pushes')
        .select('booking_id')
        .where(pendingPush)
        .where(dueAndUnleased(now, 'network_pushes'))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Claims up to `limit` due pushes for `owner` until `leaseUntil`, counting an attempt for each.
     * The caller runs this in a write transaction (see claimable).
     */
    async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedPush[]> {
      const due = db
        .selectFrom('network_pushes')
        .select('booking_id')
        .where(pendingPush)
        .where(dueAndUnleased(now, 'network_pushes'))
        .orderBy('next_attempt_at');
      return db
        .updateTable('network_pushes')
        .set((eb) => ({ lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where('booking_id', 'in', claimable(due, dialect, limit))
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

    /** Records the network's id of a booking. Not a change of the booking: updated_at stays. */
    async setNetworkId(bookingId: number, networkId: string | null): Promise<void> {
      await db.updateTable('bookings').set({ network_booking: networkId }).where('id', '=', bookingId).execute();
    },

    /** Pending and refused pushes, refused first, then by booking. */
    open(): Promise<OpenPush[]> {
      return db
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
        .orderBy('n.status', 'desc')
        .orderBy('n.booking_id')
        .execute() as Promise<OpenPush[]>;
    },

    status(bookingId: number): Promise<{ status: NetworkPushesTable['status'] } | undefined> {
      return db.selectFrom('network_pushes').select('status').where('booking_id', '=', bookingId).executeTakeFirst();
    },

    /** A refused push becomes pending and due now; false when it was not refused. */
    async retryRefused(bookingId: number, now: number): Promise<boolean> {
      const r = await db
        .updateTable('network_pushes')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now, updated_at: now })
        .where('booking_id', '=', bookingId)
        .where('status', '=', 'refused')
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },
  };
}

export type NetworkPushesRepository = ReturnType<typeof networkPushesRepository>;
