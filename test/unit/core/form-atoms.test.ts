// The page forms' atoms through the validator the routes use: how posted text is read and coerced,
// the limits, and the messages a refused field gets.
import { describe, expect, it } from 'vitest';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { fieldErrorsFromValidation } from '../../../src/core/web/errors.js';
import { formValues } from '../../../src/core/web/forms.js';
import { validatorCompiler } from '../../../src/core/web/validation.js';
import {
  Checkbox,
  CheckboxList,
  Csrf,
  DateField,
  Field,
  FORM_LIMITS,
  IdField,
  IdPath,
  IntegerField,
  pageForm,
  Prose,
} from '../../../src/core/web/form-atoms.js';

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };
const compiler = validatorCompiler({ exact: {}, coercing: {} });
const compile = (schema: object, httpPart = 'body') =>
  compiler({ schema, httpPart, method: 'POST', url: '/form' } as never) as unknown as Validate;

/** Validates a copy of `posted` as a page form: the value read, or the field errors. */
function check(schema: object, posted: Record<string, unknown>, httpPart = 'body') {
  const validate = compile(schema, httpPart);
  const data = structuredClone(posted);
  const ok = validate(data);
  return { ok, data, errors: ok ? {} : fieldErrorsFromValidation(validate.errors ?? [], httpPart) };
}

describe('page form atoms', () => {
  const form = pageForm({
    name: Field(),
    notes: Prose(),
    user_id: IdField('Give the CID of the member (a number).'),
    status: IntegerField(-4, 3, 'The status must be one of: -4, -3, -2, -1, 0, 1, 2, 3.'),
    valid_to: DateField({ blank: true, message: 'Give the last day as a date, YYYY-MM-DD.' }),
    day: DateField(),
    paused: Checkbox(),
    mentors: CheckboxList(IdField('Each mentor is named by their CID (a number).')),
    _csrf: Csrf,
  });
  const valid = { name: 'Ada', user_id: '1000001', status: '0', valid_to: '', day: '2026-06-01', _csrf: 't' };

  it('reads a field trimmed, its first value when repeated, and blank when absent', () => {
    const { ok, data } = check(form, { ...valid, name: ['  Ada  ', 'Bo'] });
    expect(ok).toBe(true);
    expect(data).toMatchObject({ name: 'Ada', notes: '' });
  });

  it('coerces ids, whole numbers and boxes; a list of boxes is every value sent, blanks left out', () => {
    const { ok, data } = check(form, { ...valid, status: '-2', paused: 'on', mentors: ['1000002', ' ', '1000003'] });
    expect(ok).toBe(true);
    expect(data).toMatchObject({ user_id: 1000001, status: -2, paused: true, mentors: [1000002, 1000003] });
    const single = check(form, { ...valid, mentors: '1000002' });
    expect(single.data).toMatchObject({ paused: false, mentors: [1000002] });
    expect(check(form, { ...valid, paused: '' }).data).toMatchObject({ paused: false, mentors: [] });
  });

  it('names each refused field with its own message', () => {
    for (const user_id of ['', 'abc', '0', '99999999999', '1.5']) {
      expect(check(form, { ...valid, user_id }).errors, user_id).toEqual({ user_id: ['Give the CID of the member (a number).'] });
    }
    expect(check(form, { ...valid, status: '4' }).errors).toEqual({ status: ['The status must be one of: -4, -3, -2, -1, 0, 1, 2, 3.'] });
    expect(check(form, { ...valid, mentors: ['1000002', 'abc'] }).errors).toEqual({
      mentors: ['Each mentor is named by their CID (a number).'],
    });
    for (const valid_to of ['2026-02-30', '1.6.2026', 'x'.repeat(3000)]) {
      expect(check(form, { ...valid, valid_to }).errors, valid_to).toEqual({ valid_to: ['Give the last day as a date, YYYY-MM-DD.'] });
    }
    expect(check(form, { ...valid, day: '' }).errors).toEqual({ day: ['The day field is not in the accepted format.'] });
    expect(check(form, { ...valid, valid_to: '2026-02-28', day: '2024-02-29' }).ok).toBe(true);
  });

  it('holds every field to the one set of limits', () => {
    expect(check(form, { ...valid, name: 'x'.repeat(FORM_LIMITS.field) }).ok).toBe(true);
    expect(check(form, { ...valid, name: 'x'.repeat(FORM_LIMITS.field + 1) }).errors).toEqual({
      name: [`The name field must be at most ${FORM_LIMITS.field} characters long.`],
    });
    expect(check(form, { ...valid, notes: 'x'.repeat(FORM_LIMITS.prose) }).ok).toBe(true);
    expect(check(form, { ...valid, notes: 'x'.repeat(FORM_LIMITS.prose + 1) }).ok).toBe(false);
    const many = Array.from({ length: FORM_LIMITS.values + 1 }, (_, i) => String(1000000 + i));
    expect(check(form, { ...valid, mentors: many }).errors).toEqual({
      mentors: [`The mentors field takes at most ${FORM_LIMITS.values} values.`],
    });
    expect(check(form, { ...valid, name: { nested: 'x' } }).errors).toEqual({ name: ['The name field must be text.'] });
  });

  it('coerces an id of a path, refusing anything that is not one', () => {
    expect(check(IdPath(), { id: '42' }, 'params')).toMatchObject({ ok: true, data: { id: 42 } });
    expect(check(IdPath('cid'), { cid: '1000001' }, 'params')).toMatchObject({ ok: true, data: { cid: 1000001 } });
    for (const id of ['0', 'abc', '2147483648', '-1']) expect(check(IdPath(), { id }, 'params').ok, id).toBe(false);
  });

  it('gives the fields back as text to fill the form again', () => {
    const { data } = check(form, { ...valid, paused: 'on', mentors: ['1000002', '1000003'], status: 'x' });
    expect(formValues(data)).toMatchObject({ user_id: '1000001', status: 'x', paused: 'on', mentors: '1000002,1000003', name: 'Ada' });
    expect(formValues(data)).not.toHaveProperty('_csrf');
  });
});
