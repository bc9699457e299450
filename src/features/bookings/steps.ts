// The steps of a booking's change inside a write, shared by every way a booking is made or changed
// (a create, an update, a member's page, a batch's items): read and check (planChange, or planCreates
// for a batch, set-based), then write (applyCreates, applyUpdate). The caller records the changes
// (Write.bookingsChanged) and maps an overlap to a 409.
import { type BookingFields, type CreateFields, changesNothing, type Plan, planBooking } from './domain/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import type { BookingValues, BookingView, BookingsRepository, Slot } from './bookings.repository.js';
import type { ReadRepositories } from '../../app/repositories.js';
import type { BookingChange } from './changes.js';
import type { Write } from '../../core/write.js';

/** What a permit sees of a change: the booking as stored (null on create) and the position it is to be on. */
export interface PermitContext {
  fields: BookingFields;
  existing: BookingView | null;
  /** The area of the stored booking's position (null on create, or a position without an area). */
  existingArea: number | null;
  position: { callsign: string; rating: number; area_id: number | null };
  /** The repositories on the write's transaction, for what else the permit decides on (read there, it cannot change before the write). */
  repos: ReadRepositories;
}

/**
 * A further check of who may make a change, run inside its transaction once the booking and the
 * position are read, so what it decides on cannot change before the write: members' pages check
 * who may book (src/features/bookings/domain/who-may-book.ts). It throws a ForbiddenError to refuse.
 */
export type BookingPermit = (change: PermitContext) => Promise<void>;

/** A change that passed its rules: what to write, or nothing (an update that changes nothing). */
export interface PlannedChange {
  existing: BookingView | null;
  /** Null: every given field equals the stored value. */
  values: BookingValues | null;
  forcedTraining: boolean;
}

/**
 * Reads what the rules decide on and applies them: the booking (id null: a create), its user and
 * position, the permit. Throws the refusal (404, 409 for a deleted booking, 403, 422).
 * PostgreSQL (lockRows): the stored booking's row is locked first.
 */
export async function planChange(
  w: Write,
  lockRows: boolean,
  id: number | null,
  fields: BookingFields,
  permit?: BookingPermit,
): Promise<PlannedChange> {
  const repo = w.repos.bookings;
  if (id !== null && lockRows) await repo.lockById(id);
  const existing = id === null ? undefined : await repo.findById(id);
  if (id !== null) {
    if (!existing) throw new NotFoundError('Booking');
    if (existing.deleted) throw new ConflictError('A deleted booking cannot be updated');
  }
  // The same look-ups as a batch's (planCreates), for one booking.
  const [user = null] = await repo.findUsers([fields.cid ?? existing!.user_id]);
  const [position = null] =
    fields.position !== undefined
      ? await repo.findPositionsByCallsign([fields.position])
      : [await repo.findPosition(existing!.position_id)];
  const facilityEndorsements =
    user && position?.required_facility ? await repo.facilityEndorsementsOf([user.id], [position.required_facility]) : [];

  if (permit && user && position) {
    await permit({
      fields,
      existing: existing ?? null,
      existingArea: existing ? await areaOf(repo, existing) : null,
      position,
      repos: w.repos,
    });
  }
  const plan = planBooking({ fields, existing: existing ?? null, user, position, facilityEndorsements, now: w.at });
  if (!plan.ok) throw new ValidationError(plan.errors);
  // Nothing to write, so nothing is caused: no event, push or audit entry; updated_at and the revision stay.
  if (existing && changesNothing(existing, plan.booking)) return { existing, values: null, forcedTraining: existing.training_forced === 1 };
  return { existing: existing ?? null, values: plan.booking, forcedTraining: plan.forcedTraining };
}

export async function areaOf(repo: BookingsRepository, booking: BookingView): Promise<number | null> {
  return (await repo.findPosition(booking.position_id))?.area_id ?? null;
}

/** The period a planned change takes: what an overlap is looked up for. */
export function slotOf(values: BookingValues, existing: BookingView | null): Slot {
  const slot: Slot = { position_id: values.position_id, time_start: values.time_start, time_end: values.time_end };
  if (existing) slot.exceptId = existing.id;
  return slot;
}

/**
 * The rules of a batch's creates, read in three statements whatever its length (the users, the
 * positions, the users' endorsements for the facilities those positions require): each item's plan.
 */
export async function planCreates(w: Write, items: readonly CreateFields[]): Promise<Plan[]> {
  const repo = w.repos.bookings;
  const users = new Map((await repo.findUsers([...new Set(items.map((f) => f.cid))])).map((u) => [u.id, u]));
  const positions = new Map((await repo.findPositionsByCallsign([...new Set(items.map((f) => f.position))])).map((p) => [p.callsign, p]));
  const facilities = [...new Set([...positions.values()].flatMap((p) => (p.required_facility ? [p.required_facility] : [])))];
  const endorsements = await repo.facilityEndorsementsOf([...users.keys()], facilities);
  return items.map((fields) => {
    const user = users.get(fields.cid) ?? null;
    const position = positions.get(fields.position) ?? null;
    const facilityEndorsements = endorsements.filter((e) => e.user_id === user?.id && e.rating === position?.required_facility);
    return planBooking({ fields, existing: null, user, position, facilityEndorsements, now: w.at });
  });
}

/**
 * Writes planned creates in one statement and reads them back in one: a change each, in the given
 * order. No check-then-write: the database's own guard refuses an overlap (SQLite triggers, the
 * PostgreSQL exclusion constraint), which aborts the write.
 */
export async function applyCreates(w: Write, creates: ReadonlyArray<BookingValues & { source: string }>): Promise<BookingChange[]> {
  const repo = w.repos.bookings;
  const created = await repo.viewsByIds(await repo.insertMany(creates, w.at));
  return created.map((after) => ({ kind: 'created', before: null, after }));
}

/** Writes a planned update of a stored booking (the database's guard refuses an overlap, as above). */
export async function applyUpdate(w: Write, values: BookingValues, existing: BookingView): Promise<BookingChange> {
  const repo = w.repos.bookings;
  if (!(await repo.update(existing.id, values, w.at))) throw new ConflictError('A deleted booking cannot be updated');
  return { kind: 'updated', before: existing, after: (await repo.findById(existing.id))! };
}
