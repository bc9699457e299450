import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { databaseTrouble } from '../db/errors.js';
import { DomainError, type FieldErrors, ValidationError } from '../domain/errors.js';
import { ERROR_MESSAGE } from './schema-atoms.js';
import { responseForDomainError } from './error-responses.js';

/** An error whose status and JSON body are meant for the client. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function fieldOf(e: FastifySchemaValidationError, part: string | undefined): string {
  const params = e.params;
  // A field of an item of a list (a batch's bookings) is named with the item: bookings[3].position.
  const [list, index, inItem] = e.instancePath.split('/').slice(1);
  if (list && index !== undefined && /^\d+$/.test(index)) {
    const field =
      e.keyword === 'required' ? params.missingProperty : e.keyword === 'additionalProperties' ? params.additionalProperty : inItem;
    if (typeof field === 'string') return `${list}[${index}].${field}`;
    // An item that is not an object at all; an item of a list of values (include[]) stays the list's.
    if ((e as { parentSchema?: { type?: unknown } }).parentSchema?.type === 'object') return `${list}[${index}]`;
  }
  if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
    return params.missingProperty;
  }
  if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return params.additionalProperty;
  }
  const path = e.instancePath.replace(/^\//, '').split('/')[0];
  return path || part || 'request';
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

// A validator error in the client's words: the validator's own names its internals (patterns, union branches).
function messageOf(e: FastifySchemaValidationError, field: string): string {
  const params = e.params;
  const the = `The ${field} field`;
  switch (e.keyword) {
    case 'required':
      return `${the} is required.`;
    case 'additionalProperties':
      return `${the} is not allowed.`;
    case 'enum':
      return `${the} must be one of: ${(params.allowedValues as unknown[]).join(', ')}.`;
    case 'type': {
      const types = String(params.type)
        .split(',')
        .filter((t) => t !== 'null');
      return `${the} must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}.`;
    }
    case 'minimum':
      return `${the} must be at least ${String(params.limit)}.`;
    case 'maximum':
      return `${the} must be at most ${String(params.limit)}.`;
    case 'exclusiveMinimum':
      return `${the} must be more than ${String(params.limit)}.`;
    case 'exclusiveMaximum':
      return `${the} must be less than ${String(params.limit)}.`;
    case 'minLength':
      return params.limit === 1 ? `${the} must not be empty.` : `${the} must be at least ${String(params.limit)} characters long.`;
    case 'maxLength':
      return `${the} must be at most ${String(params.limit)} characters long.`;
    case 'minItems':
      return `${the} takes at least ${String(params.limit)} values.`;
    case 'maxItems':
      return `${the} takes at most ${String(params.limit)} values.`;
    case 'pattern':
    case 'format':
      return `${the} is not in the accepted format.`;
    default:
      return `${the} is invalid.`;
  }
}

// Each branch of a union reports why it did not match ("must be null", a pattern); the union's
// own error says it once, for the field.
const UNION = new Set(['anyOf', 'oneOf']);
const inUnionBranch = (e: FastifySchemaValidationError) => /\/(anyOf|oneOf)\/\d+\//.test(e.schemaPath);

const entryOf = (map: unknown, key: string): unknown =>
  typeof map === 'object' && map !== null && Object.hasOwn(map, key) ? (map as Record<string, unknown>)[key] : undefined;

/** The message the refusing schema's ERROR_MESSAGE annotation names for this error, if any. */
function schemaMessage(e: FastifySchemaValidationError, field: string): string | undefined {
  const named = (e as { parentSchema?: Record<string, unknown> }).parentSchema?.[ERROR_MESSAGE];
  if (typeof named === 'string') return named;
  const perKeyword = entryOf(named, e.keyword);
  if (typeof perKeyword === 'string') return perKeyword;
  const perField = entryOf(perKeyword, field);
  return typeof perField === 'string' ? perField : undefined;
}

/** Ajv errors -> {field: [messages]}, one entry per distinct message, never in the validator's terms. */
export function fieldErrorsFromValidation(errors: FastifySchemaValidationError[], part?: string): FieldErrors {
  const out: FieldErrors = {};
  const add = (field: string, msg: string) => {
    // Own properties only, defined rather than assigned: a field may be named "constructor" or "__proto__".
    if (!Object.hasOwn(out, field)) Object.defineProperty(out, field, { value: [], enumerable: true, writable: true, configurable: true });
    if (!out[field]!.includes(msg)) out[field]!.push(msg);
  };
  for (const e of errors) {
    if (e.keyword === 'if' || inUnionBranch(e)) continue;
    const field = fieldOf(e, part);
    add(field, schemaMessage(e, field) ?? (UNION.has(e.keyword) ? `The ${field} field is invalid.` : messageOf(e, field)));
  }
  if (Object.keys(out).length === 0) out[part ?? 'request'] = ['The request is invalid.'];
  return out;
}

// A client that hung up mid-request; a lost database connection raises the same code, so the request's own state decides.
function clientHungUp(request: FastifyRequest): boolean {
  const raw = request.raw;
  return raw.destroyed && !raw.complete;
}

const CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Empty JSON body',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large (limit 64 KiB)',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json or application/x-www-form-urlencoded',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_BAD_URL: 'Malformed URL',
  FST_ERR_ASYNC_CONSTRAINT: 'Malformed request',
};

/**
 * Every error becomes JSON {message, ...}. Client errors keep their status; anything
 * unexpected is logged in full and responded to with a bare 500 (never a stack trace).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError | DomainError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) {
      const response = responseForDomainError(error);
      if (response.status >= 500) request.log.error({ err: error }, 'unmapped domain error');
      for (const [k, v] of Object.entries(response.headers ?? {})) reply.header(k, v);
      return reply.code(response.status).send(response.body);
    }
    if (error instanceof ApiError) {
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      return reply.code(error.statusCode).send({ message: error.message, ...error.extra });
    }
    const fe = error;
    if (fe.validation) {
      const response = responseForDomainError(new ValidationError(fieldErrorsFromValidation(fe.validation, fe.validationContext)));
      return reply.code(response.status).send(response.body);
    }
    if (clientHungUp(request)) {
      // Not the service's trouble, and nobody left to read a response: noted, never as an outage.
      request.log.info({ code: (error as { code?: unknown }).code }, 'client closed the connection before the whole request arrived');
      return reply.code(400).send({ message: 'The request was not complete' });
    }
    const trouble = databaseTrouble(error);
    if (trouble === 'badText') return reply.code(400).send({ message: 'Text in the request must not contain NUL (\\u0000) characters' });
    if (trouble !== null) {
      // Nothing was changed (the transaction rolled back); the client may simply try again.
      request.log.warn({ err: error }, `database ${trouble}`);
      const message = trouble === 'busy' ? 'The database is busy; try again shortly' : 'The database is unavailable; try again shortly';
      return reply.code(503).header('retry-after', '1').send({ message });
    }
    const status = fe.statusCode ?? 500;
    if (status === 429) {
      return reply.code(429).send({ message: fe.message || 'Too many requests, retry later' });
    }
    if (status >= 400 && status < 500) {
      const message = (fe.code && CLIENT_ERRORS[fe.code]) || fe.message || 'Bad request';
      return reply.code(status).send({ message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: 'Internal server error' });
  });
}
