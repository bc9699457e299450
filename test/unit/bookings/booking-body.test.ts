// The create and update bodies as the API checks them: blanks removed (withoutBlanks), the
// body schema's errors in the client's words (the schema's own messages), then the fields of an
// accepted body (bookingFieldsOf).
import { describe, expect, it } from 'vitest';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { type BookingInputMode, bookingFieldsOf, MESSAGES, withoutBlanks } from '../../../src/features/bookings/domain/index.js';
import type { BookingBody } from '../../../src/features/bookings/domain/input.js';
import type { FieldErrors } from '../../../src/core/domain/errors.js';
import { fieldErrorsFromValidation } from '../../../src/core/web/errors.js';
import { validatorCompiler } from '../../../src/core/web/validation.js';
import { BOOKING_FORMATS } from '../../../src/features/bookings/formats.js';
import { CreateBookingBody, UpdateBookingBody } from '../../../src/features/bookings/booking-input.schema.js';

type Checked = { ok: true; fields: ReturnType<typeof bookingFieldsOf> } | { ok: false; errors: FieldErrors };

const validators = {
  create: validatorCompiler(BOOKING_FORMATS)({ schema: CreateBookingBody, httpPart: 'body', method: 'POST', url: '/api/bookings/create' }),
  update: validatorCompiler(BOOKING_FORMATS)({ schema: UpdateBookingBody, httpPart: 'body', method: 'PATCH', url: '/api/bookings/:id' }),
};

function parseBookingBody(raw: unknown, mode: BookingInputMode): Checked {
  const body = withoutBlanks(raw, mode);
  const validate = validators[mode] as ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };
  if (validate(body)) return { ok: true, fields: bookingFieldsOf(body as BookingBody, mode) };
  return { ok: false, errors: fieldErrorsFromValidation(validate.errors ?? [], 'body') };
}

describe('the booking body schemas', () => {
  const valid = { cid: 1000001, date: '1/2/2026', start_at: '9:00', end_at: '11:30', position: 'ekch_twr' };

  it('parses a create body, upper-casing the position and defaulting tag and source', () => {
    expect(parseBookingBody(valid, 'create')).toEqual({
      ok: true,
      fields: {
        cid: 1000001,
        date: { year: 2026, month: 2, day: 1 },
        start_at: 540,
        end_at: 690,
        position: 'EKCH_TWR',
        tag: null,
        source: 'CC',
      },
    });
  });

  it('accepts digit strings for cid and tag, as forms send them', () => {
    const r = parseBookingBody({ ...valid, cid: '1000001', tag: '3', source: 'vatsim' }, 'create');
    expect(r).toMatchObject({ ok: true, fields: { cid: 1000001, tag: 3, source: 'VATSIM' } });
  });

  it('reports every format error together', () => {
    const r = parseBookingBody(
      { cid: 'abc', date: '30/02/2026', start_at: '24:00', end_at: '9:5', position: 5, tag: 4, source: 'not valid!' },
      'create',
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['cid', 'date', 'end_at', 'position', 'source', 'start_at', 'tag']);
    expect(r.errors.date).toEqual([MESSAGES.date]);
  });

  it('requires the five fields on create, counting empty values as missing', () => {
    const r = parseBookingBody({ cid: '', date: null }, 'create');
    expect(r).toEqual({
      ok: false,
      errors: {
        cid: [MESSAGES.required('cid')],
        date: [MESSAGES.required('date')],
        start_at: [MESSAGES.required('start_at')],
        end_at: [MESSAGES.required('end_at')],
        position: [MESSAGES.required('position')],
      },
    });
  });

  it('rejects wrong JSON types rather than coercing them', () => {
    for (const [field, value] of [
      ['cid', true],
      ['cid', 1.5],
      ['cid', 0],
      ['cid', -3],
      ['cid', '0'],
      ['tag', 1.5],
      ['tag', '12'],
      ['tag', 0],
      ['date', 20260201],
      ['start_at', 900],
      ['source', 'x'.repeat(17)],
      ['position', 'X'.repeat(33)],
      ['position', ['EKCH_TWR']],
    ] as const) {
      const r = parseBookingBody({ ...valid, [field]: value }, 'create');
      expect(r.ok, `${field}=${JSON.stringify(value)}`).toBe(false);
      if (!r.ok) expect(Object.keys(r.errors)).toEqual([field]);
    }
  });

  it('rejects unknown fields, and source on update', () => {
    expect(parseBookingBody({ ...valid, start: '10:00' }, 'create')).toEqual({
      ok: false,
      errors: { start: [MESSAGES.notAllowed('start')] },
    });
    expect(parseBookingBody({ source: 'CC' }, 'update')).toEqual({ ok: false, errors: { source: [MESSAGES.sourceFixed] } });
  });

  it('parses a partial update: absent fields stay absent, a null tag removes the tag', () => {
    expect(parseBookingBody({ end_at: '13:00' }, 'update')).toEqual({ ok: true, fields: { end_at: 780 } });
    expect(parseBookingBody({ tag: null, cid: null }, 'update')).toEqual({ ok: true, fields: { tag: null } });
    expect(parseBookingBody({ tag: '' }, 'update')).toEqual({ ok: true, fields: { tag: null } });
  });

  it('refuses an update that gives no field, blank ones included', () => {
    for (const body of [undefined, {}, { cid: '', date: null }]) {
      expect(parseBookingBody(body, 'update')).toEqual({ ok: false, errors: { body: [MESSAGES.nothingToChange] } });
    }
  });

  it('rejects a body that is not an object', () => {
    for (const body of [null, [], 'text', 42])
      expect(parseBookingBody(body, 'create')).toEqual({ ok: false, errors: { body: [MESSAGES.body] } });
  });

  it('words each wrong field with its own message, once', () => {
    const r = parseBookingBody(
      { cid: { a: [1] }, date: ['1/2/2026'], start_at: 9, end_at: '9:5', position: 'A'.repeat(31), tag: '4', source: ' ' },
      'create',
    );
    expect(r).toEqual({
      ok: false,
      errors: {
        cid: [MESSAGES.cid],
        date: [MESSAGES.date],
        start_at: [MESSAGES.time('start_at')],
        end_at: [MESSAGES.time('end_at')],
        position: [MESSAGES.position],
        tag: [MESSAGES.tag],
      },
    });
  });
});
