// The members' booking form (GET /bookings/new): its fields read into the API's booking fields, so
// the page follows the same formats and rules. A date input sends YYYY-MM-DD; typed, d/m/Y.
import type { FieldErrors } from '../../../core/domain/errors.js';
import { type CreateFields, MESSAGES } from './input.js';

/** The fields the form posts (anything else, such as its CSRF token, is not a booking field). */
export const MEMBER_FORM_FIELDS = ['position', 'date', 'start_at', 'end_at', 'tag'] as const;
export type MemberFormField = (typeof MEMBER_FORM_FIELDS)[number];

/** What the member typed, as text, to fill the form again after an error. */
export type MemberFormValues = Record<MemberFormField, string>;

export type MemberFormFields = Omit<CreateFields, 'cid' | 'source'>;

export type ParsedMemberForm = { ok: true; fields: MemberFormFields } | { ok: false; errors: FieldErrors };

/** The API's check of a create body (its schema, then its fields): the form is held to the same. */
export type CreateBodyCheck = (body: Record<string, string>) => { ok: true; fields: CreateFields } | { ok: false; errors: FieldErrors };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Every field is required but the tag; each error is reported under its field, all at once. */
export function parseMemberForm(values: MemberFormValues, cid: number, check: CreateBodyCheck): ParsedMemberForm {
  const iso = ISO_DATE.exec(values.date.trim());
  const date = iso ? `${iso[3]}/${iso[2]}/${iso[1]}` : values.date;
  const parsed = check({ ...values, date, cid: String(cid) });
  if (!parsed.ok) {
    // A date input's value is shown back as it was sent; the message speaks of both formats.
    const errors = { ...parsed.errors };
    if (errors.date && iso) errors.date = [MESSAGES.date];
    return { ok: false, errors };
  }
  const { cid: _cid, source: _source, ...fields } = parsed.fields;
  return { ok: true, fields };
}
