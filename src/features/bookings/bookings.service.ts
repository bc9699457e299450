import { recordBookingChanges } from './events.js';
import {
  type BookingFields,
  type BookingListFilter,
  type CreateFields,
  firstClash,
  firstStoredClash,
  isBookingId,
  itemErrors,
  type ListPosition,
  RULE_MESSAGES,
} from './domain/index.js';
import { ConflictError, type FieldErrors, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { isBookingOverlap } from '../../core/db/errors.js';
import { bookingListBody, type BookingForm } from './bookings.presenter.js';
import type { BookingView, Slot, StoredSlot } from './bookings.repository.js';
import type { ReadRepositories } from '../../app/repositories.js';
import type { BookingFull, BookingReduced } from './bookings.schema.js';
import type { Actor } from './changes.js';
import { applyCreates, applyUpdate, type BookingPermit, planChange, planCreates, slotOf } from './steps.js';
import type { Write, Writer } from '../../app/deps.js';
import type { Deps } from '../../app/deps.js';

export type { BookingPermit, PermitContext } from './steps.js';

export const OVERLAP_MESSAGE = 'Booking overlaps with an existing booking';

/** Called inside the write with what it made, last: stores the request's response with the change (an Idempotency-Key's). */
export type Seal = (w: Write, saved: SavedBooking[]) => Promise<void>;

/** The 409 of slots overlapping stored bookings, naming the first item that does; null when none does. */
function storedOverlap(slots: readonly Slot[], stored: readonly StoredSlot[]): ConflictError | null {
  const clash = firstStoredClash(slots, stored);
  return clash ? new ConflictError(OVERLAP_MESSAGE, { conflicts: clash.conflicts, index: clash.index }) : null;
}

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
export class BookingsService {
  /** PostgreSQL: lock the booking's row and its position's writers (SQLite writes one at a time anyway). */
  private readonly lockRows: boolean;
  private readonly bookings: ReadRepositories['bookings'];
  private readonly writer: Writer;

  constructor({ writer, repos }: Deps<'writer' | 'repos'>) {
    this.writer = writer;
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
  async save(
    id: number | null,
    fields: BookingFields,
    actor: Actor,
    options: { permit?: BookingPermit; seal?: Seal } = {},
  ): Promise<SavedBooking> {
    if (id !== null && !isBookingId(id)) throw new NotFoundError('Booking');
    const attempt: { slot?: Slot } = {};
    try {
      return await this.writer.write(async (w): Promise<SavedBooking> => {
        const planned = await planChange(w, this.lockRows, id, fields, options.permit);
        if (planned.values === null) return { booking: planned.existing!, forcedTraining: planned.forcedTraining };
        const positionId = planned.values.position_id;
        if (this.lockRows && !(await w.repos.bookings.lockPositions([positionId])).has(positionId))
          throw new ValidationError({ position: [RULE_MESSAGES.unknownPosition(fields.position ?? '')] });
        attempt.slot = slotOf(planned.values, planned.existing);
        const change = planned.existing
          ? await applyUpdate(w, planned.values, planned.existing)
          : (await applyCreates(w, [{ ...planned.values, source: fields.source ?? 'CC' }]))[0]!;
        await recordBookingChanges(w, [change], actor, 'api');
        const saved = { booking: change.after, forcedTraining: planned.forcedTraining };
        await options.seal?.(w, [saved]);
        return saved;
      });
    } catch (err) {
      if (attempt.slot && isBookingOverlap(err)) {
        throw new ConflictError(OVERLAP_MESSAGE, { conflicts: (await this.bookings.overlapping([attempt.slot])).map((b) => b.id) });
      }
      throw err;
    }
  }

  /**
   * POST /api/bookings/batch: every item created in one write, in order, or none, in a handful of
   * statements whatever its length. Every item's rules are checked before anything is written, and
   * their refusals returned together (422, named by item); then an overlap between two items, then
   * with a stored booking (409 naming the item).
   */
  async createBatch(items: readonly CreateFields[], actor: Actor, seal?: Seal): Promise<SavedBooking[]> {
    const attempt: { slots?: Slot[] } = {};
    try {
      return await this.writer.write(async (w) => {
        const plans = await planCreates(w, items);
        const errors: FieldErrors = {};
        for (const [index, p] of plans.entries()) if (!p.ok) Object.assign(errors, itemErrors(index, p.errors));
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        const planned = plans.flatMap((p) => (p.ok ? [p] : []));
        const clash = firstClash(planned.map((p) => p.booking));
        if (clash) {
          throw new ConflictError(`Booking overlaps with booking ${clash.other} of the batch`, { conflicts: [], index: clash.index });
        }
        // Two batches sharing positions queue on them (taken in one order) instead of deadlocking.
        if (this.lockRows) {
          const kept = await w.repos.bookings.lockPositions(planned.map((p) => p.booking.position_id));
          const gone = planned.findIndex((p) => !kept.has(p.booking.position_id));
          if (gone >= 0) throw new ValidationError(itemErrors(gone, { position: [RULE_MESSAGES.unknownPosition(items[gone]!.position)] }));
        }
        attempt.slots = planned.map((p) => slotOf(p.booking, null));
        // Which item a stored booking overlaps, for the 409's index: read under the write lock (SQLite)
        // or the positions' locks (PostgreSQL), so it is exact. The database's own guard still decides.
        const conflict = storedOverlap(attempt.slots, await w.repos.bookings.overlapping(attempt.slots));
        if (conflict) throw conflict;
        const changes = await applyCreates(
          w,
          planned.map((p, index) => ({ ...p.booking, source: items[index]!.source })),
        );
        await recordBookingChanges(w, changes, actor, 'api');
        const saved = changes.map((c, i) => ({ booking: c.after, forcedTraining: planned[i]!.forcedTraining }));
        await seal?.(w, saved);
        return saved;
      });
    } catch (err) {
      if (attempt.slots && isBookingOverlap(err)) {
        // A writer that takes no position lock (an import) got in first: named after the rollback.
        throw (
          storedOverlap(attempt.slots, await this.bookings.overlapping(attempt.slots)) ??
          new ConflictError(OVERLAP_MESSAGE, { conflicts: [] })
        );
      }
      throw err;
    }
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
        const position = (await repo.findPosition(existing.position_id))!;
        await permit({ fields: {}, existing, existingArea: position.area_id, position, repos: w.repos });
      }
      if (existing.deleted || !(await repo.softDelete(id, now))) throw new ConflictError('Booking is already deleted');
      const booking = (await repo.findById(id))!;
      await recordBookingChanges(w, [{ kind: 'deleted', before: existing, after: booking }], actor, 'api');
      return booking;
    });
  }
}
