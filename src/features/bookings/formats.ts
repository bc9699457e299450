// The string formats of the bookings' schemas, checked by the one validator (src/core/web/validation.ts).
import type { Formats } from '../../core/web/validation.js';
import { DAY_MONTH_YEAR, LIST_CURSOR, WINDOW_BOUND } from './booking-input.schema.js';
import { decodeCursor, parseDayMonthYear, parseWindowBound } from './domain/index.js';

export const BOOKING_FORMATS: Formats = {
  exact: { [DAY_MONTH_YEAR]: (text) => parseDayMonthYear(text) !== null },
  coercing: {
    [WINDOW_BOUND]: (text) => parseWindowBound(text, 'from') !== null,
    [LIST_CURSOR]: (text) => decodeCursor(text) !== null,
  },
};
