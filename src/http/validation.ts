import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { decodeCursor, parseDayMonthYear, parseWindowBound } from '../domain/bookings/index.js';
import { DAY_MONTH_YEAR, LIST_CURSOR, WINDOW_BOUND } from '../schemas/booking-input.js';

// Query strings and path params are coerced from text; bodies are not (a JSON `true` must not become cid 1).
// `verbose`: each error carries its schema, whose message the error handler responds with.
const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, verbose: true };
const coercing = new Ajv({ ...common, coerceTypes: 'array' });
const exact = new Ajv({ ...common, coerceTypes: false });
exact.addFormat(DAY_MONTH_YEAR, { type: 'string', validate: (text: string) => parseDayMonthYear(text) !== null });
coercing.addFormat(WINDOW_BOUND, { type: 'string', validate: (text: string) => parseWindowBound(text, 'from') !== null });
coercing.addFormat(LIST_CURSOR, { type: 'string', validate: (text: string) => decodeCursor(text) !== null });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema as object);
