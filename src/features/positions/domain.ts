// A position as staff add or change it (contract §17): the rules of each field, per field.
import type { FieldErrors } from '../../core/domain/errors.js';
import { MAX_CALLSIGN_LENGTH } from '../../core/domain/limits.js';
import { RATINGS, ratingValue } from '../members/domain/ratings.js';

export const CALLSIGN_PATTERN = new RegExp(`^[A-Z0-9_]{3,${MAX_CALLSIGN_LENGTH}}$`);
/** The VHF air band's channels, in MHz with three decimals. */
export const FREQUENCY_PATTERN = /^\d{3}\.\d{3}$/;
export const MIN_FREQUENCY = 118;
export const MAX_FREQUENCY = 136.975;

/** A position's fields as given (names and codes, not ids); each may be absent in a change. */
export interface PositionInput {
  callsign?: string;
  name?: string;
  frequency?: string;
  area?: string;
  /** Rating code, the least needed to control it without a training tag. */
  rating?: string;
  required_facility?: string | null;
}

/** The fields' rule failures; `areas` are the areas' names as stored. */
export function positionProblems(p: PositionInput, areas: ReadonlySet<string>): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (p.callsign !== undefined && !CALLSIGN_PATTERN.test(p.callsign)) {
    add('callsign', `A callsign is 3 to ${MAX_CALLSIGN_LENGTH} characters of A-Z, 0-9 and _, like EKCH_TWR.`);
  }
  if (p.name !== undefined && (p.name.trim() === '' || p.name.length > 100)) add('name', 'The name field must be 1 to 100 characters.');
  if (p.frequency !== undefined) {
    const mhz = Number(p.frequency);
    if (!FREQUENCY_PATTERN.test(p.frequency) || mhz < MIN_FREQUENCY || mhz > MAX_FREQUENCY) {
      add('frequency', 'The frequency must be NNN.NNN in the VHF air band, 118.000 to 136.975.');
    }
  }
  if (p.area !== undefined && !areas.has(p.area)) add('area', `There is no area named "${p.area}".`);
  if (p.rating !== undefined) {
    const value = ratingValue(p.rating);
    if (value === undefined || value < RATINGS.S1 || value > RATINGS.C3) add('rating', 'The rating must be a rating code from S1 to C3.');
  }
  if (
    p.required_facility !== undefined &&
    p.required_facility !== null &&
    (p.required_facility.trim() === '' || p.required_facility.length > 100)
  ) {
    add('required_facility', 'The required_facility field must be 1 to 100 characters, or null.');
  }
  return errors;
}
