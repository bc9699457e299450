// The public schedule page (GET /): upcoming bookings grouped by UTC day, server-rendered, every
// value escaped by html`…`. Works without JavaScript; the page's script only adds local times.
import { type CalendarFilter, feedQuery, flagLabels } from '../domain/calendar/filter.js';
import type { CalendarBooking } from '../repositories/calendar.js';
import { type Html, html } from './html.js';
import { type OnNow, onNowSection } from './on-now.js';

export interface PageAssets {
  /** URLs with a content hash, so they can be cached for good. */
  css: string;
  js: string;
  icon: string;
}

export interface SchedulePage {
  siteName: string;
  bookings: readonly CalendarBooking[];
  /** Every area's name, for the filter's select. */
  areas: readonly string[];
  filter: CalendarFilter;
  assets: PageAssets;
  /** Who is on now (absent: the section is not shown), as of `now`. */
  online?: { controllers: readonly OnNow[]; now: number };
}

const DAY_TITLE = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const SHORT_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

const isoMinute = (ms: number): string => new Date(ms).toISOString().replace(/:\d{2}\.\d{3}Z$/, 'Z');
const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function timeCell(b: CalendarBooking): Html {
  const sameDay = utcDay(b.time_start) === utcDay(b.time_end - 1);
  const end = sameDay ? hhmm(b.time_end) : `${SHORT_DAY.format(b.time_end)} ${hhmm(b.time_end)}`;
  return html`<td class="time" data-label="Time (UTC)"><span class="utc"><time datetime="${isoMinute(b.time_start)}">${hhmm(b.time_start)}</time>–<time datetime="${isoMinute(b.time_end)}">${end}</time></span></td>`;
}

function row(b: CalendarBooking): Html {
  const flags = flagLabels(b);
  return html`<tr data-start="${isoMinute(b.time_start)}" data-end="${isoMinute(b.time_end)}">${timeCell(b)}<th scope="row" data-label="Callsign">${b.callsign}</th><td data-label="Position">${b.position_name}</td><td data-label="Frequency">${b.frequency}</td><td data-label="Type"><span class="flags">${
    flags.length === 0 ? html`<span class="muted">Controlling</span>` : flags.map((f, i) => html`${i > 0 ? ' ' : ''}<span class="flag flag-${f.toLowerCase()}">${f}</span>`)
  }</span></td></tr>`;
}

function day(date: string, bookings: CalendarBooking[]): Html {
  const id = `day-${date}`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${DAY_TITLE.format(Date.parse(date))}</h2>
<table>
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Callsign</th><th scope="col">Position</th><th scope="col">Frequency</th><th scope="col">Type</th></tr></thead>
<tbody>
${bookings.map((b) => html`${row(b)}\n`)}</tbody>
</table></section>
`;
}

function byUtcDay(bookings: readonly CalendarBooking[]): Map<string, CalendarBooking[]> {
  const days = new Map<string, CalendarBooking[]>();
  for (const b of bookings) {
    const key = utcDay(b.time_start);
    const list = days.get(key);
    if (list) list.push(b);
    else days.set(key, [b]);
  }
  return days;
}

function filters(page: SchedulePage): Html {
  const { filter, areas } = page;
  const prefix = filter.prefixes[0] ?? filter.callsigns[0] ?? '';
  const feed = `/calendar/bookings.ics${feedQuery(filter)}`;
  return html`<nav aria-label="Filters">
<form method="get" action="/" class="filters">
<div class="field"><label for="area">Area</label>
<select id="area" name="area"><option value="">All areas</option>${areas.map(
    (a) => html`<option value="${a}"${filter.areas.includes(a.toLowerCase()) ? html` selected` : ''}>${a}</option>`,
  )}</select></div>
<div class="field"><label for="callsign">Callsign starts with</label>
<input id="callsign" name="callsign" value="${prefix}" maxlength="32" autocomplete="off" autocapitalize="characters" spellcheck="false" placeholder="EKCH"></div>
<div class="actions"><button type="submit">Show</button> <a href="/">Clear filters</a></div>
</form>
<p class="feed"><a href="${feed}" type="text/calendar">Subscribe to these bookings in your calendar (iCalendar feed)</a></p>
</nav>`;
}

/** The whole page's bytes. */
export function schedulePage(page: SchedulePage): Buffer {
  const days = byUtcDay(page.bookings);
  const feed = `/calendar/bookings.ics${feedQuery(page.filter)}`;
  const body = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${page.siteName} — controller bookings</title>
<link rel="icon" href="${page.assets.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${page.assets.css}">
<link rel="alternate" type="text/calendar" title="${page.siteName} bookings" href="${feed}">
<script src="${page.assets.js}" defer></script>
</head>
<body>
<header>
<h1>${page.siteName}</h1>
<p>Booked control positions, now and for the next 30 days. Times are UTC<span class="local-note" hidden>; your local time is shown below each</span>.</p>
</header>
${filters(page)}
<main>
${page.online ? onNowSection(page.online.controllers, page.bookings, page.online.now) : ''}
${
  days.size === 0
    ? html`<p class="empty">No bookings in the next 30 days${page.filter.areas.length + page.filter.prefixes.length + page.filter.callsigns.length > 0 ? ' match these filters' : ''}.</p>`
    : [...days].map(([date, list]) => day(date, list))
}</main>
<footer>
<p>${page.siteName} · <a href="${feed}">iCalendar feed</a> · <a href="/docs">API</a></p>
</footer>
</body>
</html>
`;
  return Buffer.from(body.toString());
}
