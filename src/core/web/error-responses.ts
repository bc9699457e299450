import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InProgressError,
  NotFoundError,
  UnsupportedTypeError,
  UpstreamError,
  ValidationError,
} from '../domain/errors.js';

export interface ErrorResponse {
  status: number;
  body: { message: string } & Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The status and JSON body for a domain refusal: 403, 404, 409 (with its details) or 422 (with `errors`). */
export function responseForDomainError(error: DomainError): ErrorResponse {
  if (error instanceof NotFoundError) return { status: 404, body: { message: error.message } };
  if (error instanceof ForbiddenError) return { status: 403, body: { message: error.message } };
  if (error instanceof InProgressError) {
    return { status: 409, body: { message: error.message, ...error.details }, headers: { 'retry-after': String(error.retryAfterSeconds) } };
  }
  if (error instanceof ConflictError) return { status: 409, body: { message: error.message, ...error.details } };
  if (error instanceof UnsupportedTypeError) return { status: 415, body: { message: error.message } };
  if (error instanceof UpstreamError) return { status: 502, body: { message: error.message } };
  if (error instanceof ValidationError) return { status: 422, body: { message: error.message, errors: error.errors } };
  // A new kind of refusal without a mapping is a bug of ours, not the client's.
  return { status: 500, body: { message: 'Internal server error' } };
}
