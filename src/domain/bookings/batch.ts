// A batch of creates (contract §5, "Batches and retries"): its size, how its items' refusals are
// named, and overlaps between its own items, found before anything is written.
import type { FieldErrors } from '../errors.js';

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

/**
 * The first item (in order) that overlaps an earlier item of the same position, with that item:
 * half-open periods, as the database's own guard compares them. Null when none do.
 */
export function firstClash(items: readonly Period[]): { index: number; other: number } | null {
  for (let index = 1; index < items.length; index++) {
    const b = items[index]!;
    for (let other = 0; other < index; other++) {
      const a = items[other]!;
      if (a.position_id === b.position_id && a.time_start < b.time_end && b.time_start < a.time_end) return { index, other };
    }
  }
  return null;
}
