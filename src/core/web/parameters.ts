// Query strings and form bodies: parsed by qs within fixed limits, and refused (never cut short)
// past them.
import type { FastifyRequest } from 'fastify';
import qs from 'qs';
import { type FieldErrors, ValidationError } from '../domain/errors.js';
import { ApiError } from './errors.js';
import { badVariant, isBadVariant } from './variant.js';

// qs drops whatever lies past its limits without a word, so a flood of junk parameters could push
// a real one (limit=1) out of the query and change the response: a query or form over its limits
// is refused instead (throwOnLimitExceeded).
const QUERY_LIMITS = { parameterLimit: 100, arrayLimit: 50 } as const;
export const FORM_LIMITS = { parameterLimit: 50, arrayLimit: 20, depth: 1 } as const;

/** How much of a form is parsed; past it the form is refused. */
export interface FormLimits {
  parameterLimit: number;
  arrayLimit: number;
  depth: number;
}

/** The client's message for a limit qs refused, naming the limit; null for any other error. */
function limitExceeded(err: unknown, part: string, limits: { parameterLimit: number; arrayLimit: number }): string | null {
  if (!(err instanceof RangeError)) return null;
  if (err.message.startsWith('Parameter limit')) return `Too many ${part}s: at most ${limits.parameterLimit} are accepted`;
  if (err.message.startsWith('Array limit')) return `Too many values for one ${part}: at most ${limits.arrayLimit} are accepted`;
  return null;
}

const ARRAY_INDEX = /(\[|%5B)(\d+)(\]|%5D)/gi;

// Writes an index at or past the limit (include[50]=a) as an append: qs would count it as that many values.
function withoutLargeIndices(s: string, arrayLimit: number): string {
  return s
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      const index = (match: string, open: string, digits: string, close: string) =>
        Number(digits) >= arrayLimit ? `${open}${close}` : match;
      return name.replace(ARRAY_INDEX, index) + (eq === -1 ? '' : part.slice(eq));
    })
    .join('&');
}

/** qs.parse, once more with large indices as appends if it refused the array limit because of one. */
function parseWithLimits(s: string, options: qs.IParseOptions & { arrayLimit: number; decoder?: never }): qs.ParsedQs {
  try {
    return qs.parse(s, options);
  } catch (err) {
    if (!(err instanceof RangeError && err.message.startsWith('Array limit'))) throw err;
    const appended = withoutLargeIndices(s, options.arrayLimit);
    if (appended === s) throw err;
    return qs.parse(appended, options);
  }
}

/**
 * Marks a query string that could not be parsed. The parser runs inside routing, where a throw
 * would escape Fastify and crash the process; a hook responds to the request instead.
 */
const QUERY_REJECTED = Symbol('query rejected');

// Accepts include[]=a, include[0]=a, include=a&include=b and include=a,b. Parameters are kept in
// an object without a prototype, so that one named like an Object.prototype member is refused as
// unknown rather than dropped unseen.
const QUERY_OPTIONS = { comma: true, depth: 2, ...QUERY_LIMITS, throwOnLimitExceeded: true, plainObjects: true };

export function parseQuery(s: string): qs.ParsedQs | { [QUERY_REJECTED]: string } {
  // Most requests have no query string: no parser for nothing.
  if (s === '') return {};
  try {
    return withProto(parseWithLimits(s, QUERY_OPTIONS), s);
  } catch (err) {
    return { [QUERY_REJECTED]: limitExceeded(err, 'query parameter', QUERY_LIMITS) ?? 'Malformed query string' };
  }
}

/**
 * The 422 for query parameters a route does not take, one entry per parameter, naming those it
 * does: a misspelt filter (cid= on the calendar feed) must not silently return everything.
 */
export function unknownParameters(names: readonly string[], known: readonly string[]): ValidationError {
  const takes =
    known.length === 0
      ? 'this route takes no query parameters'
      : `this route takes ${known.length === 1 ? known[0] : `${known.slice(0, -1).join(', ')} and ${known[known.length - 1]}`}`;
  const errors: FieldErrors = {};
  for (const name of names) {
    // Defined, not assigned: a parameter may be named "__proto__" or "constructor".
    Object.defineProperty(errors, name, {
      value: [`The ${name} parameter is unknown: ${takes}.`],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return new ValidationError(errors);
}

export interface RequestChecks {
  /** Whether the route reads Api-Variant (API routes), so that a bad value is refused. */
  variant: boolean;
  /** The query parameters the route takes; any other is refused. Absent: the query is not checked. */
  parameters?: readonly string[];
}

/**
 * What makes a request malformed after routing: its query (unparseable, or naming a parameter the
 * route does not take) and, on API routes, its Api-Variant. Throws the refusal.
 */
export function checkRequest(request: FastifyRequest, { variant, parameters }: RequestChecks): void {
  const query = request.query as Record<string | symbol, unknown> | undefined;
  const rejected = query?.[QUERY_REJECTED];
  if (typeof rejected === 'string') throw new ApiError(400, rejected);
  if (parameters !== undefined && query !== undefined) {
    const unknown = Object.keys(query).filter((name) => !parameters.includes(name));
    if (unknown.length > 0) throw unknownParameters(unknown, parameters);
  }
  if (variant && isBadVariant(request.headers['api-variant'])) throw badVariant();
}

/**
 * Form bodies, in an object without a prototype so that a field named constructor or __proto__ is
 * refused as unknown rather than dropped unseen.
 */
export function parseForm(s: string, limits: FormLimits = FORM_LIMITS): qs.ParsedQs {
  let fields: qs.ParsedQs;
  try {
    fields = parseWithLimits(s, { ...limits, throwOnLimitExceeded: true, plainObjects: true });
  } catch (err) {
    const message = limitExceeded(err, 'form field', limits);
    throw message === null ? err : new ApiError(400, message);
  }
  return withProto(fields, s);
}

/** The fields with `__proto__` as a field like any other when `s` names it: qs drops it whatever its options. */
function withProto(fields: qs.ParsedQs, s: string): qs.ParsedQs {
  if (!s.includes('__proto__')) return fields;
  for (const [name, value] of new URLSearchParams(s)) {
    if (name === '__proto__' || name.startsWith('__proto__[')) {
      Object.defineProperty(fields, '__proto__', { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return fields;
}
