import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

// Query strings and path params arrive as text, so they are coerced ("1" -> 1, "a" -> ["a"]).
// Bodies are not: a JSON `true` must not become cid 1. Form bodies send digit strings, which
// the body schemas accept explicitly where the contract allows it.
const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };
const coercing = new Ajv({ ...common, coerceTypes: 'array' });
const exact = new Ajv({ ...common, coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema as object);
