// A batch of creates (contract §5, "Batches and retries"): its size, how its items' refusals are
// named, overlaps between its own items (found before anything is written), and which item a
// stored booking's overlap belongs to.
import type { FieldErrors } from '../../../core/domain/errors.js';

/** At most this many bookings in one batch. */
export const MAX_BATCH_SIZE = 100;

/** The item's field errors named with the item: `position` of item 3 is `bookings[3].position`. */
export function itemErrors(index: number, errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) out[`bookings[${index}].${field}`] = messages;
  return out;
}

interface Period {
  position_id: number;
  time_start: number;
  time_end: number;
}

const overlap = (a: Period, b: Period): boolean =>
  a.position_id === b.position_id && a.time_start < b.time_end && b.time_start < a.time_end;

/**
 * The first item (in order) that overlaps an earlier item of the same position, with that item:
 * half-open periods, as the database's own guard compares them. Null when none do.
 */
export function firstClash(items: readonly Period[]): { index: number; other: number } | null {
  for (let index = 1; index < items.length; index++) {
    const b = items[index]!;
    for (let other = 0; other < index; other++) {
      const a = items[other]!;
      if (overlap(a, b)) return { index, other };
    }
  }
  return null;
}

/**
 * The first item (in order) that stored bookings overlap, with their ids (a slot's own booking,
 * exceptId, aside). Null when none do: what the database refused has since changed.
 */
export function firstStoredClash(
  items: ReadonlyArray<Period & { exceptId?: number }>,
  stored: ReadonlyArray<Period & { id: number }>,
): { index: number; conflicts: number[] } | null {
  for (const [index, item] of items.entries()) {
    const conflicts = stored.filter((b) => b.id !== item.exceptId && overlap(item, b)).map((b) => b.id);
    if (conflicts.length > 0) return { index, conflicts };
  }
  return null;
}
