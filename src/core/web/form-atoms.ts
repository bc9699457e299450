// What every page form is made of (the members', staff and sign-in pages), with one set of limits.
// A page form is a `pageForm` of these atoms, declared as the API's bodies are. Its body arrives
// urlencoded — every value text, a repeated field as a list, an unticked box absent — and the
// validator (src/core/web/validation.ts, src/core/web/forms.ts) first reads each field as its atom says
// (a field's first value, trimmed, '' when absent; a box ticked or not; a list of boxes as a list,
// blanks left out), then checks it, coercing whole numbers. Unknown fields are let through (other
// sites' links and the network's sign-in add their own).
import { type TProperties, type TSchema, Type } from 'typebox';
import { ERROR_MESSAGE } from './schema-atoms.js';

export const FORM_LIMITS = {
  /** A one-line field (a name, a callsign, a choice, a token). */
  field: 2000,
  /** A field of prose (a training report). */
  prose: 25_000,
  /** The values of one list of boxes. */
  values: 50,
  /** The largest id a path or field may name: a positive 32-bit integer. */
  id: 2_147_483_647,
} as const;

/** The annotation marking an object as a page form: its fields are read as their atoms say before they are checked. */
export const PAGE_FORM = 'x-page-form';
/** How a field of a page form is read from the posted text: its first value (the default), a box, or a list. */
export const FORM_VALUE = 'x-form-value';
export type FormValueKind = 'first' | 'checkbox' | 'list';
/** The formats of a date field: YYYY-MM-DD, a real day; the second also takes a blank. */
export const FORM_DATE = 'form-date';
export const FORM_DATE_OR_BLANK = 'form-date-or-blank';

/** One line of text, trimmed ('' when absent), of at most `maxLength` characters. */
export const Field = (options: { maxLength?: number; message?: string } = {}) =>
  Type.String({
    maxLength: options.maxLength ?? FORM_LIMITS.field,
    ...(options.message === undefined ? {} : { [ERROR_MESSAGE]: options.message }),
  });

/** Prose (a report): a field with the longer limit. */
export const Prose = () => Field({ maxLength: FORM_LIMITS.prose });

/** A form's CSRF token: checked by its scope's guard before the form is validated, so only its size here. */
export const Csrf = Field();

/** A positive 32-bit id in a field, coerced from its text; `message` for anything else (blank included). */
export const IdField = (message?: string) =>
  Type.Integer({ minimum: 1, maximum: FORM_LIMITS.id, ...(message === undefined ? {} : { [ERROR_MESSAGE]: message }) });

/** A whole number from `minimum` to `maximum` in a field, coerced from its text. */
export const IntegerField = (minimum: number, maximum: number, message?: string) =>
  Type.Integer({ minimum, maximum, ...(message === undefined ? {} : { [ERROR_MESSAGE]: message }) });

/**
 * The annotation of an object whose whole-number properties take digits only: the validator would
 * otherwise read `1e3` as 1000 and `+5` as 5, where a person typed something that is not a number.
 */
export const WHOLE_NUMBERS = 'x-whole-numbers';

/** A path naming a row by its positive 32-bit id (`/…/:id`, or another name): digits, coerced; anything else fails. */
export const IdPath = <K extends string = 'id'>(name: K = 'id' as K) =>
  Type.Object({ [name]: Type.Integer({ minimum: 1, maximum: FORM_LIMITS.id }) } as Record<K, ReturnType<typeof Type.Integer>>, {
    [WHOLE_NUMBERS]: true,
  });

/** A path naming a row by its text (a callsign): at most 40 characters. */
export const TextPath = <K extends string>(name: K) =>
  Type.Object({ [name]: Type.String({ maxLength: 40 }) } as Record<K, ReturnType<typeof Type.String>>);

/** A day, YYYY-MM-DD (what a date input sends); `blank` lets it be left empty. */
export const DateField = (options: { blank?: boolean; message?: string } = {}) =>
  Type.String({
    format: options.blank === true ? FORM_DATE_OR_BLANK : FORM_DATE,
    ...(options.message === undefined ? {} : { [ERROR_MESSAGE]: options.message }),
  });

/** A box: ticked when sent with a value, false when absent or blank. */
export const Checkbox = () => Type.Boolean({ [FORM_VALUE]: 'checkbox' satisfies FormValueKind });

/** Boxes sharing a name: every value sent, trimmed, blanks left out (none: an empty list). */
export const CheckboxList = <T extends TSchema>(item: T, maxItems: number = FORM_LIMITS.values) =>
  Type.Array(item, { maxItems, [FORM_VALUE]: 'list' satisfies FormValueKind });

/** A page form (or a page's query) of these atoms; its whole numbers take digits only. */
export const pageForm = <P extends TProperties>(properties: P) => Type.Object(properties, { [PAGE_FORM]: true, [WHOLE_NUMBERS]: true });

/** Whether `text` is a real day written YYYY-MM-DD. */
export function isFormDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === text;
}
