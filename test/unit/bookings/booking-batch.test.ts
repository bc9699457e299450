import { describe, expect, it } from 'vitest';
import { firstClash, itemErrors } from '../../../src/features/bookings/domain/index.js';

const H = 3_600_000;
const at = (position_id: number, from: number, to: number) => ({ position_id, time_start: from * H, time_end: to * H });

describe('a batch: overlaps between its own items', () => {
  it('names the first item that overlaps an earlier one of its position, with that one', () => {
    expect(firstClash([at(1, 10, 12), at(2, 10, 12), at(1, 11, 13), at(1, 10, 11)])).toEqual({ index: 2, other: 0 });
    // Containment overlaps too.
    expect(firstClash([at(1, 8, 20), at(1, 10, 11)])).toEqual({ index: 1, other: 0 });
  });

  it('finds none between periods that only touch (half-open), or on different positions', () => {
    expect(firstClash([at(1, 10, 12), at(1, 12, 14), at(1, 8, 10), at(2, 10, 12)])).toBeNull();
    expect(firstClash([])).toBeNull();
  });

  it("names an item's field errors with the item", () => {
    expect(itemErrors(3, { position: ['Unknown'], start_at: ['Past'] })).toEqual({
      'bookings[3].position': ['Unknown'],
      'bookings[3].start_at': ['Past'],
    });
  });
});
