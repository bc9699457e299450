import { type TSchema, type TSchemaOptions, type TUnsafe, Type } from 'typebox';

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

/** A schema's annotation naming the message for a value that breaks it: one, per keyword, or per keyword and field. */
export const ERROR_MESSAGE = 'x-error-message';

/** A value, or null. */
export const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/**
 * A time as every answer gives it, ISO 8601 UTC with microseconds: `description` says of what (the
 * format alone without it), `example` is one of its values.
 */
export const isoTimestamp = (example: string, description?: string) =>
  Type.String({
    format: 'date-time',
    examples: [example],
    description: description === undefined ? 'ISO 8601 UTC with microseconds' : `${description} (ISO 8601 UTC with microseconds)`,
  });
