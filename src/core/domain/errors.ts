// What a rule or a service refuses, in the domain's terms. The HTTP layer maps each kind to its
// status (src/core/web/error-responses.ts); the CLI turns them into one line on stderr.

/** Messages per field, as a 422 response carries them. */
export type FieldErrors = Record<string, string[]>;

/** A refusal meant for the client: its message is safe to show. */
export abstract class DomainError extends Error {}

/** The thing asked for does not exist (or is not visible to the caller). */
export class NotFoundError extends DomainError {
  constructor(what = 'Resource') {
    super(`${what} not found`);
  }
}

/** The caller may not do this (a member booking what they may not book); the message says why. */
export class ForbiddenError extends DomainError {}

/** The request is well-formed but clashes with the current state; `details` go into the response. */
export class ConflictError extends DomainError {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** What was sent is of a kind this place does not keep (a file's type found from its content): 415. */
export class UnsupportedTypeError extends DomainError {}

/** Another service this needs could not be asked (no answer, or not a usable one): 502, try again later. */
export class UpstreamError extends DomainError {}

/** The same request is still being processed (a repeat under its Idempotency-Key): 409, try again in a second. */
export class InProgressError extends ConflictError {
  readonly retryAfterSeconds = 1;
}

/** Fields that break a rule, each with its messages; the message is the first one, and a count of the rest. */
export class ValidationError extends DomainError {
  constructor(readonly errors: FieldErrors) {
    super(summaryOf(errors));
  }
}

function summaryOf(errors: FieldErrors): string {
  const fields = Object.keys(errors);
  const first = errors[fields[0]!]?.[0] ?? 'The given data was invalid.';
  const more = fields.length > 1 ? ` (and ${fields.length - 1} more error${fields.length > 2 ? 's' : ''})` : '';
  return `${first}${more}`;
}

/** A rule's answer: allowed, or refused with the reason in words. */
export type Decision = { ok: true } | { ok: false; reason: string };
