// Events and webhook deliveries: the rules, without I/O (docs/events.md).

export const EVENT_TYPES = [
  'booking.created',
  'booking.updated',
  'booking.deleted',
  'endorsement.created',
  'endorsement.updated',
  'endorsement.revoked',
  'endorsement.expired',
  'role.granted',
  'role.revoked',
  'position.created',
  'position.updated',
  'position.deleted',
  'training.created',
  'training.updated',
  'training.closed',
  'training.report',
  'training.report_deleted',
  'training.examination',
  'activity.inactive_online',
  'vote.closed',
  'feedback.created',
  'task.created',
  'task.completed',
  'task.declined',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Types added from §20 on that carry what members wrote or decided (contract §17): they reach only
 * subscriptions that name them, never one made without a filter.
 */
export const NAMED_ONLY_EVENT_TYPES: readonly EventType[] = [
  'training.report_deleted',
  'activity.inactive_online',
  'vote.closed',
  'feedback.created',
  'task.created',
  'task.completed',
  'task.declined',
];

export const isEventType = (text: string): text is EventType => (EVENT_TYPES as readonly string[]).includes(text);

/** Longest gap between two attempts, whatever the base. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

export const isEventId = (text: string): boolean => /^evt_[0-9A-Z]{26}$/.test(text);

/** When attempt `attempts + 1` is due after `attempts` failures, or null when none is left: base, doubling, capped at an hour. */
export function retryDelay(attempts: number, baseMs: number, maxAttempts: number): number | null {
  if (attempts >= maxAttempts) return null;
  return Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(attempts - 1, 40));
}

/** The stored filter: ",a,b," (so one LIKE '%,type,%' matches), or null for every type. */
export function encodeEventFilter(types: readonly EventType[] | null): string | null {
  return types === null ? null : `,${[...new Set(types)].join(',')},`;
}

export function decodeEventFilter(stored: string | null): EventType[] | null {
  return stored === null ? null : (stored.split(',').filter(Boolean) as EventType[]);
}

/**
 * What a subscription or stream receives: the types it named, or without a filter every type but
 * those that go only to receivers naming them (contract §17).
 */
export function acceptsEvent(types: readonly EventType[] | null): (type: string) => boolean {
  if (types === null) return (type) => !(NAMED_ONLY_EVENT_TYPES as readonly string[]).includes(type);
  const named = new Set<string>(types);
  return (type) => named.has(type);
}

/** Parses `--events a,b`; throws with a message naming the unknown type. */
export function parseEventFilter(text: string): EventType[] {
  const types = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (types.length === 0) throw new Error(`--events needs at least one of ${EVENT_TYPES.join(', ')}`);
  for (const t of types) if (!isEventType(t)) throw new Error(`unknown event type "${t}"; known: ${EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

/**
 * Control characters (C0, DEL, C1, so ESC too), whitespace of any kind (line and paragraph
 * separators, no-break spaces) and the invisible characters that reorder or hide text.
 */
const UNSAFE_IN_URL = /[\u0000-\u0020\u007f-\u00a0\s\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;

/** The text with its %-escapes decoded: byte by byte when they are not UTF-8 (so no escape hides). */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** An http: or https: URL with a host, without control characters or whitespace, or a message why not. */
export function webhookUrlProblem(text: string): string | null {
  // Checked on the text as given: URL parsing would silently drop tabs and line breaks, and the
  // refusal does not echo the URL, so nothing in it reaches the operator's terminal.
  if (UNSAFE_IN_URL.test(text) || UNSAFE_IN_URL.test(percentDecoded(text))) {
    return 'the URL must not contain control characters or whitespace, as they are or %-encoded';
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `not a URL: ${JSON.stringify(text)}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the URL must be http: or https: (got "${url.protocol}")`;
  if (!url.hostname) return 'the URL has no host';
  if (url.username || url.password) return 'the URL must not carry a user name or password';
  return null;
}

export interface EventEnvelope<T> {
  id: string;
  type: EventType;
  timestamp: string;
  data: T;
}
