import { Ajv, type Options, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { decodeCursor, parseDayMonthYear, parseWindowBound } from '../../features/bookings/domain/index.js';
import { DAY_MONTH_YEAR, LIST_CURSOR, WINDOW_BOUND } from '../../features/bookings/booking-input.schema.js';
import { FORM_DATE, FORM_DATE_OR_BLANK, isFormDate, PAGE_FORM } from './form-atoms.js';
import { pageFormKeyword } from './forms.js';

// Query strings, path params and the pages' forms (src/core/web/form-atoms.ts) are coerced from text;
// other bodies are not (a JSON `true` must not become cid 1).
// `verbose`: each error carries its schema, whose message the error handler responds with.
const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, verbose: true };
const coercing = new Ajv({ ...common, coerceTypes: 'array' });
const exact = new Ajv({ ...common, coerceTypes: false });
exact.addFormat(DAY_MONTH_YEAR, { type: 'string', validate: (text: string) => parseDayMonthYear(text) !== null });
coercing.addFormat(WINDOW_BOUND, { type: 'string', validate: (text: string) => parseWindowBound(text, 'from') !== null });
coercing.addFormat(LIST_CURSOR, { type: 'string', validate: (text: string) => decodeCursor(text) !== null });
coercing.addFormat(FORM_DATE, { type: 'string', validate: isFormDate });
coercing.addFormat(FORM_DATE_OR_BLANK, { type: 'string', validate: (text: string) => text === '' || isFormDate(text) });
coercing.addKeyword(pageFormKeyword);

const isPageForm = (schema: unknown): boolean => typeof schema === 'object' && schema !== null && PAGE_FORM in schema;

// Each validator is compiled when its route is first used, not at start: a server or CLI process
// starts without compiling the schemas of the many routes it never serves. Fastify reads `errors`
// from the function it was given, so the compiled function's errors are copied onto it.
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown): boolean => {
    compiled ??= (httpPart === 'body' && !isPageForm(schema) ? exact : coercing).compile(schema as object);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  return validate;
};
