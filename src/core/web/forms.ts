// How a page form (src/core/web/form-atoms.ts) is read and checked: the validator's keyword that
// reads each posted field as its atom says, and, for the route, what failed in the words the API
// uses (fieldErrorsFromValidation), to show beside the fields of the form posted again.
//
//   app.post('/staff/things/:id', { schema: thingForm, attachValidation: true }, (request, reply) => {
//     const failed = formFailure(request);
//     if (failed?.part === 'params') return notFound(request, reply, 'thing');
//     if (failed) return sendForm(request, reply, 422, formValues(request.body), failed.errors);
//     const { name, paused } = request.body;   // typed from the schema: a string, a boolean
//   });
import type { AnySchemaObject, FuncKeywordDefinition } from 'ajv';
import type { FastifyRequest } from 'fastify';
import type { FieldErrors } from '../domain/errors.js';
import { FORM_VALUE, type FormValueKind, PAGE_FORM, WHOLE_NUMBERS } from './form-atoms.js';
import { fieldErrorsFromValidation } from './errors.js';

const kindOf = (schema: unknown): FormValueKind => {
  const kind = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>)[FORM_VALUE] : undefined;
  return kind === 'checkbox' || kind === 'list' ? kind : 'first';
};

const trimmed = (v: unknown): unknown => (typeof v === 'string' ? v.trim() : v);

/** One posted field as its atom reads it. Anything not text (a nested object) is left for the check to refuse. */
function read(kind: FormValueKind, posted: unknown): unknown {
  const values: unknown[] = posted === undefined ? [] : Array.isArray(posted) ? posted : [posted];
  if (kind === 'list') return values.map(trimmed).filter((v) => v !== '');
  const first = trimmed(values[0]);
  if (kind === 'checkbox') return first !== undefined && first !== '';
  return first ?? '';
}

/** The validator's keyword of a page form: rewrites the posted fields in place before the object's own keywords check them. */
export const pageFormKeyword: FuncKeywordDefinition = {
  keyword: PAGE_FORM,
  type: 'object',
  schemaType: 'boolean',
  modifying: true,
  before: 'required',
  errors: false,
  validate: (on: boolean, data: Record<string, unknown>, parentSchema?: AnySchemaObject) => {
    if (!on) return true;
    const properties = (parentSchema?.properties ?? {}) as Record<string, unknown>;
    for (const [name, schema] of Object.entries(properties)) {
      const value = read(kindOf(schema), Object.hasOwn(data, name) ? data[name] : undefined);
      Object.defineProperty(data, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return true;
  },
};

/** What was typed in a whole-number field that is not digits, kept to show the form again with it. */
const TYPED = Symbol('typed');

const isWholeNumber = (schema: unknown): boolean =>
  typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'integer';
const itemsOf = (schema: unknown): unknown =>
  typeof schema === 'object' && schema !== null ? (schema as { items?: unknown }).items : undefined;

/**
 * The validator's keyword of a whole-number field: text that is not digits (with a sign) becomes
 * NaN, which no coercion turns into a number, so the field's own message refuses it.
 */
export const wholeNumbersKeyword: FuncKeywordDefinition = {
  keyword: WHOLE_NUMBERS,
  type: 'object',
  schemaType: 'boolean',
  modifying: true,
  before: 'required',
  errors: false,
  validate: (on: boolean, data: Record<string, unknown>, parentSchema?: AnySchemaObject) => {
    if (!on) return true;
    const typed: Record<string, string> = {};
    const digits = (name: string, v: unknown): unknown => {
      if (typeof v !== 'string' || /^-?\d+$/.test(v)) return v;
      typed[name] = typed[name] === undefined ? v : `${typed[name]},${v}`;
      return NaN;
    };
    for (const [name, schema] of Object.entries((parentSchema?.properties ?? {}) as Record<string, unknown>)) {
      if (!Object.hasOwn(data, name)) continue;
      const value = data[name];
      if (isWholeNumber(schema)) data[name] = digits(name, value);
      else if (isWholeNumber(itemsOf(schema)) && Array.isArray(value)) data[name] = value.map((v) => digits(name, v));
    }
    if (Object.keys(typed).length > 0) Object.defineProperty(data, TYPED, { value: typed, enumerable: false });
    return true;
  },
};

export interface FormFailure {
  /** What failed: the path (it names nothing: a 404), or the form's fields. */
  part: 'params' | 'body';
  /** Messages per field, as the API words them (or as the atom's annotation names them). */
  errors: FieldErrors;
}

/**
 * What the route's validation refused (a route with `attachValidation: true`), or null when the
 * request is valid. A query or a header that fails is not the form's: it is thrown to the scope's
 * error handler, as from a route without the option.
 */
export function formFailure(request: FastifyRequest): FormFailure | null {
  const failed = request.validationError as (Error & { validation?: unknown; validationContext?: string }) | undefined;
  if (failed === undefined) return null;
  const part = failed.validationContext;
  if (part !== 'params' && part !== 'body') throw failed;
  const validation = Array.isArray(failed.validation) ? (failed.validation as Parameters<typeof fieldErrorsFromValidation>[0]) : [];
  return { part, errors: fieldErrorsFromValidation(validation, part) };
}

/**
 * Whether the path of a route without fields of its own (a page, a form of only its token) names
 * nothing: a 404. Any other failure goes to the scope's error handler, as from a route without the option.
 */
export function pathFailed(request: FastifyRequest): boolean {
  const failed = formFailure(request);
  if (failed?.part === 'body') throw request.validationError!;
  return failed !== null;
}

/** A form's fields as text again, to fill the form posted back: a box 'on' or '', a list joined by commas. */
export function formValues(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof body !== 'object' || body === null) return out;
  const text = (v: unknown): string =>
    typeof v === 'string' ? v : typeof v === 'number' ? String(v) : typeof v === 'boolean' ? (v ? 'on' : '') : '';
  const typed = (body as { [TYPED]?: Record<string, string> })[TYPED] ?? {};
  for (const [name, v] of Object.entries(body)) {
    if (name === '_csrf') continue;
    Object.defineProperty(out, name, {
      value: typed[name] ?? (Array.isArray(v) ? v.map(text).join(',') : text(v)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
