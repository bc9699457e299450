// The filters of the calendar feed and the schedule page, and the windows each one shows.
import { MAX_CALLSIGN_LENGTH } from '../../core/domain/limits.js';

const DAY = 86_400_000;

/** Bookings deleted this recently are published as cancelled, so subscribed calendars drop them. */
export const CANCELLED_FOR_MS = 7 * DAY;
/** The feed: from a week ago to 90 days ahead. */
export const FEED_PAST_MS = 7 * DAY;
export const FEED_AHEAD_MS = 90 * DAY;
/** The page: what is on now and in the next 30 days. */
export const PAGE_AHEAD_MS = 30 * DAY;

/** More values than this for one filter are refused: no real query needs them. */
export const MAX_FILTER_VALUES = 20;
export const MAX_AREA_LENGTH = 100;

/** A filter normalised: sorted, without duplicates, so equal filters have equal keys. */
export interface CalendarFilter {
  /** Lower-case area names (an area matches case-insensitively). */
  areas: string[];
  /** Upper-case callsigns matched exactly. */
  callsigns: string[];
  /** Upper-case callsign prefixes (`EKCH_*` in the feed, any value on the page). */
  prefixes: string[];
}

export interface FilterQuery {
  area?: string | string[];
  callsign?: string | string[];
}

export type ParsedFilter = { ok: true; filter: CalendarFilter } | { ok: false; errors: Record<string, string[]> };

/**
 * Feed: a callsign is exact unless it ends in `*` (a prefix). Page: the form asks for the start of
 * a callsign, so every value is a prefix. Empty values are no filter (an empty form field).
 */
export type FilterMode = 'feed' | 'page';

const CONTROL = /[\u0000-\u001f\u007f]/;
// Position callsign characters, tested before upper-casing (which turns `ß` or `ı` into ASCII).
const CALLSIGN_CHARACTERS = /^[A-Za-z0-9_]+$/;

const valuesOf = (v: string | string[] | undefined): string[] =>
  (v === undefined ? [] : Array.isArray(v) ? v : [v]).map((s) => s.trim()).filter(Boolean);
const normalised = (values: Iterable<string>): string[] => [...new Set(values)].sort();

export function parseCalendarFilter(query: FilterQuery, mode: FilterMode): ParsedFilter {
  const errors: Record<string, string[]> = {};
  const areas = valuesOf(query.area);
  const callsigns = valuesOf(query.callsign);
  if (areas.length > MAX_FILTER_VALUES) errors.area = [`At most ${MAX_FILTER_VALUES} areas can be given.`];
  else if (areas.some((a) => a.length > MAX_AREA_LENGTH || CONTROL.test(a))) {
    errors.area = [`The area field must be an area's name of at most ${MAX_AREA_LENGTH} characters.`];
  }
  const exact: string[] = [];
  const prefixes: string[] = [];
  if (callsigns.length > MAX_FILTER_VALUES) errors.callsign = [`At most ${MAX_FILTER_VALUES} callsigns can be given.`];
  else {
    for (const raw of callsigns) {
      const star = raw.endsWith('*');
      const stem = star ? raw.slice(0, -1) : raw;
      if (stem.length > MAX_CALLSIGN_LENGTH || !CALLSIGN_CHARACTERS.test(stem)) {
        errors.callsign = [
          `The callsign field must be a callsign (EKCH_TWR) or its start followed by * (EKCH_*): letters A-Z, digits and _, at most ${MAX_CALLSIGN_LENGTH} characters.`,
        ];
        break;
      }
      (star || mode === 'page' ? prefixes : exact).push(stem.toUpperCase());
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    filter: { areas: normalised(areas.map((a) => a.toLowerCase())), callsigns: normalised(exact), prefixes: normalised(prefixes) },
  };
}

/** Equal for equal filters, whatever order or case they were given in. */
export const filterKey = (f: CalendarFilter): string => JSON.stringify([f.areas, f.callsigns, f.prefixes]);

/** What a filter compares: the booking's upper-case callsign and its position's lower-case area. */
export interface Filterable {
  callsignKey: string;
  areaKey: string | null;
}

export function matchesFilter(f: CalendarFilter, b: Filterable): boolean {
  if (f.areas.length > 0 && (b.areaKey === null || !f.areas.includes(b.areaKey))) return false;
  if (f.callsigns.length === 0 && f.prefixes.length === 0) return true;
  return f.callsigns.includes(b.callsignKey) || f.prefixes.some((p) => b.callsignKey.startsWith(p));
}

/** The feed's query string for a filter (`?area=denmark&callsign=EKCH*`): the page links to the feed of what it shows. */
export function feedQuery(f: CalendarFilter): string {
  const params = new URLSearchParams();
  for (const a of f.areas) params.append('area', a);
  for (const c of f.callsigns) params.append('callsign', c);
  for (const p of f.prefixes) params.append('callsign', `${p}*`);
  const s = params.toString().replace(/%2A/g, '*');
  return s === '' ? '' : `?${s}`;
}

export interface Window {
  /** Bookings ending after this instant. */
  from: number;
  /** Bookings starting before this instant. */
  to: number;
  /** Deleted bookings are shown (cancelled) when deleted at or after this instant; null: never. */
  cancelledSince: number | null;
}

export const feedWindow = (now: number): Window => ({
  from: now - FEED_PAST_MS,
  to: now + FEED_AHEAD_MS,
  cancelledSince: now - CANCELLED_FOR_MS,
});
export const pageWindow = (now: number): Window => ({ from: now, to: now + PAGE_AHEAD_MS, cancelledSince: null });

/** A booking's SUMMARY: its callsign, and what it is flagged as. */
export function flagLabels(b: { training: number; exam: number; event: number }): string[] {
  return [b.training ? 'Training' : null, b.exam ? 'Exam' : null, b.event ? 'Event' : null].filter((s): s is string => s !== null);
}
