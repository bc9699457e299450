import { Type } from 'typebox';

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
