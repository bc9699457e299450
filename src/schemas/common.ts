import { type TSchemaOptions, type TUnsafe, Type } from 'typebox';

export const ErrorBody = Type.Object(
  { message: Type.String() },
  { additionalProperties: true, description: 'Error: a human-readable message' },
);

export const ValidationErrorBody = Type.Object(
  {
    message: Type.String(),
    errors: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Messages per field' }),
  },
  { description: 'Validation failed' },
);

/**
 * A string that is one of `values`: `{"type": "string", "enum": […]}` in the document, the
 * values' union in TypeScript. Type.Enum would drop `"type": "string"` from the document.
 */
export function stringEnum<T extends string>(values: readonly T[], options: TSchemaOptions = {}): TUnsafe<T> {
  return Type.Unsafe<T>(Type.String({ enum: [...values], ...options }));
}

/**
 * The annotation of a schema naming what a client reads when a value breaks it: one sentence
 * for any keyword, one per keyword ({type: …}), or per keyword and field ({additionalProperties:
 * {source: …}}). src/http/errors.ts answers with it.
 */
export const ERROR_MESSAGE = 'x-error-message';
