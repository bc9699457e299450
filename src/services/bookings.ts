import {
  type BookingFields,
  type BookingListFilter,
  changesNothing,
  isBookingId,
  type ListPosition,
  planBooking,
} from '../domain/bookings/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.js';
import { isBookingOverlap } from '../db/errors.js';
import { bookingListBody, type BookingForm } from '../presenters/bookings.js';
import type { BookingView, BookingsRepository, Slot } from '../repositories/bookings.js';
import type { Repositories } from '../repositories/index.js';
import type { BookingFull, BookingReduced } from '../schemas/bookings.js';
import type { Actor } from './booking-changes.js';
import type { Writer } from './write.js';

export const OVERLAP_MESSAGE = 'Booking overlaps with an existing booking';

/** What a permit sees of a change: the booking as stored (null on create) and the position it is to be on. */
export interface PermitContext {
  fields: BookingFields;
  existing: BookingView | null;
  /** The area of the stored booking's position (null on create, or a position without an area). */
  existingArea: number | null;
  position: { callsign: string; rating: number; area_id: number | null };
  /** The repositories on the write's transaction, for what else the permit decides on (read there, it cannot change before the write). */
  repos: Repositories;
}

/**
 * A further check of who may make a change, run inside its transaction once the booking and the
 * position are read, so what it decides on cannot change before the write: members' pages check
 * who may book (src/domain/bookings/who-may-book.ts). It throws a ForbiddenError to refuse.
 */
export type BookingPermit = (change: PermitContext) => Promise<void>;

export interface SavedBooking {
  booking: BookingView;
  /** Training was forced on the booker (the response says "tag": "Training"). */
  forcedTraining: boolean;
}

export interface BookingsPage {
  bookings: Array<BookingFull | BookingReduced>;
  /** Where the next page starts, when `limit` was given and more bookings follow. */
  next: ListPosition | null;
}

/**
 * The bookings (contract §5): lists and look-ups are plain queries; creates, updates and deletes
 * are each one write, conflicts become 409s.
 */
export class Bookings {
  /** PostgreSQL: lock the booking's row and its position's writers (SQLite writes one at a time anyway). */
  private readonly lockRows: boolean;
  private readonly bookings: BookingsRepository;

  constructor(
    private readonly writer: Writer,
    repos: Repositories,
  ) {
    this.lockRows = writer.db.dialect === 'postgres';
    this.bookings = repos.bookings;
  }

  /** GET /api/bookings: the live bookings the filter selects, one query. */
  async list(form: BookingForm, filter: BookingListFilter): Promise<BookingsPage> {
    const limit = filter.limit;
    // One more than a page: whether another follows.
    const rows = await this.bookings.list(limit === undefined ? filter : { ...filter, limit: limit + 1 });
    const more = limit !== undefined && rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page.at(-1);
    return { bookings: bookingListBody(page, form), next: more && last ? { time_start: last.time_start, id: last.id } : null };
  }

  /** GET /api/bookings/{id}: any booking with a key, deleted ones too; without a key, live ones only. */
  async find(id: number, form: BookingForm): Promise<BookingView> {
    const booking = isBookingId(id) ? await this.bookings.findById(id) : undefined;
    // Without a key a deleted booking is gone, as in the public list.
    if (!booking || (booking.deleted && form === 'reduced')) throw new NotFoundError('Booking');
    return booking;
  }

  /**
   * Creates (id null) or updates a booking in one write transaction. Overlaps are refused by the
   * database itself (SQLite triggers, the PostgreSQL exclusion constraint), which no interleaving
   * of requests or processes can get past; the refusal aborts the transaction, so the conflicting
   * ids are looked up afterwards for the 409.
   */
  async save(id: number | null, fields: BookingFields, actor: Actor, permit?: BookingPermit): Promise<SavedBooking> {
    if (id !== null && !isBookingId(id)) throw new NotFoundError('Booking');
    const attempt: { slot?: Slot } = {};
    try {
      return await this.writer.write(async (w): Promise<SavedBooking> => {
        const now = w.at;
        const repo = w.repos.bookings;
        if (id !== null && this.lockRows) await repo.lockById(id);
        const existing = id === null ? undefined : await repo.findById(id);
        if (id !== null) {
          if (!existing) throw new NotFoundError('Booking');
          if (existing.deleted) throw new ConflictError('A deleted booking cannot be updated');
        }
        const user = (await repo.findUser(fields.cid ?? existing!.user_id)) ?? null;
        const position =
          (await repo.findPosition(fields.position !== undefined ? { callsign: fields.position } : { id: existing!.position_id })) ?? null;
        const facilityEndorsements =
          user && position?.required_facility ? await repo.facilityEndorsements(user.id, position.required_facility) : [];

        if (permit && user && position) {
          await permit({
            fields,
            existing: existing ?? null,
            existingArea: existing ? await this.areaOf(repo, existing) : null,
            position,
            repos: w.repos,
          });
        }
        const plan = planBooking({ fields, existing: existing ?? null, user, position, facilityEndorsements, now });
        if (!plan.ok) throw new ValidationError(plan.errors);
        // Nothing to write, so nothing is caused: no event, push or audit entry; updated_at and the revision stay.
        if (existing && changesNothing(existing, plan.booking)) {
          return { booking: existing, forcedTraining: existing.training_forced === 1 };
        }

        if (this.lockRows) await repo.lockPosition(plan.booking.position_id);
        const slot: Slot = { position_id: plan.booking.position_id, time_start: plan.booking.time_start, time_end: plan.booking.time_end };
        if (existing) slot.exceptId = existing.id;
        // No check-then-write: the database's own guard refuses an overlap (below).
        attempt.slot = slot;

        let bookingId: number;
        if (existing) {
          if (!(await repo.update(existing.id, plan.booking, now))) throw new ConflictError('A deleted booking cannot be updated');
          bookingId = existing.id;
        } else {
          bookingId = await repo.insert({ ...plan.booking, source: fields.source ?? 'CC' }, now);
        }
        const booking = (await repo.findById(bookingId))!;
        await w.bookingsChanged([{ kind: existing ? 'updated' : 'created', before: existing ?? null, after: booking }], actor, 'api');
        return { booking, forcedTraining: plan.forcedTraining };
      });
    } catch (err) {
      if (attempt.slot && isBookingOverlap(err)) {
        throw new ConflictError(OVERLAP_MESSAGE, { conflicts: await this.bookings.overlapping(attempt.slot) });
      }
      throw err;
    }
  }

  private async areaOf(repo: BookingsRepository, booking: BookingView): Promise<number | null> {
    return (await repo.findPosition({ id: booking.position_id }))?.area_id ?? null;
  }

  /** Soft delete: the row stays, marked deleted, and leaves the list. */
  async remove(id: number, actor: Actor, permit?: BookingPermit): Promise<BookingView> {
    if (!isBookingId(id)) throw new NotFoundError('Booking');
    return this.writer.write(async (w) => {
      const now = w.at;
      const repo = w.repos.bookings;
      if (this.lockRows) await repo.lockById(id);
      const existing = await repo.findById(id);
      if (!existing) throw new NotFoundError('Booking');
      if (permit) {
        const position = (await repo.findPosition({ id: existing.position_id }))!;
        await permit({ fields: {}, existing, existingArea: position.area_id, position, repos: w.repos });
      }
      if (existing.deleted || !(await repo.softDelete(id, now))) throw new ConflictError('Booking is already deleted');
      const booking = (await repo.findById(id))!;
      await w.bookingsChanged([{ kind: 'deleted', before: existing, after: booking }], actor, 'api');
      return booking;
    });
  }
}
