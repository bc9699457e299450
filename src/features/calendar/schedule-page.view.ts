// The public schedule page (GET /): upcoming bookings grouped by UTC day, server-rendered, every
// value escaped by html`…`. Works without JavaScript; the page's script only adds local times.
import type { PageAssets } from '../../core/web/page-assets.js';
import { feedQuery, flagLabels } from './domain.js';
import type { FieldErrors } from '../../core/domain/errors.js';
import { MAX_CALLSIGN_LENGTH } from '../../core/domain/limits.js';
import type { CalendarBooking } from './calendar.repository.js';
import { type Html, html } from '../../core/web/html.js';
import { accountBar, type AccountView } from '../../core/web/page-frame.js';
import { onNowSection } from './on-now.view.js';
import type { Booker, SchedulePage, ScheduleFrame } from './calendar.service.js';


/** A filter the server refused: what was typed, and the error of each field. */
export interface RefusedFilter {
  area: string;
  callsign: string;
  errors: FieldErrors;
}

const DAY_TITLE = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const SHORT_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

const isoMinute = (ms: number): string => new Date(ms).toISOString().replace(/:\d{2}\.\d{3}Z$/, 'Z');
const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;
const JUMP_DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

function timeCell(b: CalendarBooking): Html {
  const sameDay = utcDay(b.time_start) === utcDay(b.time_end - 1);
  const end = sameDay ? hhmm(b.time_end) : `${SHORT_DAY.format(b.time_end)} ${hhmm(b.time_end)}`;
  return html`<td class="time" data-label="Time (UTC)"><span class="utc"><time datetime="${isoMinute(b.time_start)}">${hhmm(b.time_start)}</time>–<time datetime="${isoMinute(b.time_end)}">${end}</time></span></td>`;
}

function bookerCell(b: CalendarBooking, bookers: ReadonlyMap<number, Booker>): Html {
  const who = bookers.get(b.id);
  return html`<td data-label="Booked by">${who ? html`<span class="booker">${who.name} <span class="muted">(${who.cid})</span></span>` : ''}</td>`;
}

function row(b: CalendarBooking, bookers: ReadonlyMap<number, Booker> | undefined): Html {
  const flags = flagLabels(b);
  return html`<tr${flags.length === 0 ? html` class="plain"` : ''} data-start="${isoMinute(b.time_start)}" data-end="${isoMinute(b.time_end)}">${timeCell(b)}<th scope="row" data-label="Callsign">${b.callsign}</th><td data-label="Position">${b.position_name}</td><td data-label="Frequency">${b.frequency}</td><td data-label="Type"><span class="flags">${
    flags.length === 0 ? html`<span class="muted plain">Controlling</span>` : flags.map((f, i) => html`${i > 0 ? ' ' : ''}<span class="flag flag-${f.toLowerCase()}">${f}</span>`)
  }</span></td>${bookers ? bookerCell(b, bookers) : ''}</tr>`;
}

function day(date: string, bookings: readonly CalendarBooking[], bookers: ReadonlyMap<number, Booker> | undefined): Html {
  const id = `day-${date}`;
  if (bookings.length === 0) {
    return html`<section aria-labelledby="${id}"><h2 id="${id}">${DAY_TITLE.format(Date.parse(date))}</h2>
<p class="none">No bookings.</p></section>
`;
  }
  // Every day's table has the same fixed columns, so they line up from one day to the next.
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${DAY_TITLE.format(Date.parse(date))}</h2>
<table>
<colgroup><col class="c-time"><col class="c-callsign"><col class="c-position"><col class="c-frequency"><col class="c-type">${bookers ? html`<col class="c-booker">` : ''}</colgroup>
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Callsign</th><th scope="col">Position</th><th scope="col">Frequency</th><th scope="col">Type</th>${bookers ? html`<th scope="col">Booked by</th>` : ''}</tr></thead>
<tbody>
${bookings.map((b) => html`${row(b, bookers)}\n`)}</tbody>
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

/** A field's error, linked from the field by aria-describedby (`${field}-error`). */
function fieldError(field: string, errors: FieldErrors): Html | '' {
  const messages = errors[field];
  return messages ? html`<p class="error" id="${field}-error">${messages.join(' ')}</p>` : '';
}

const describedBy = (field: string, errors: FieldErrors): Html | '' =>
  errors[field] ? html` aria-describedby="${field}-error" aria-invalid="true"` : '';

interface FilterForm {
  areas: readonly string[];
  /** Lower-case names of the selected areas. */
  selected: readonly string[];
  callsign: string;
  errors: FieldErrors;
  /** The feed of what the page shows; null on an error page. */
  feed: string | null;
}

/**
 * The filters and the feed link, folded (a <details>, no script needed) so that on a phone the
 * bookings begin on the first screen; open while a filter is in use or refused.
 */
function filters(form: FilterForm): Html {
  const { areas, errors } = form;
  const open = form.selected.length > 0 || form.callsign !== '' || Object.keys(errors).length > 0;
  return html`<nav aria-label="Filters">
<details class="filter-box"${open ? html` open` : ''}><summary>Filters and calendar feed</summary>
<form method="get" action="/" class="filters">
<div class="field"><label for="area">Area</label>
<select id="area" name="area"${describedBy('area', errors)}><option value="">All areas</option>${areas.map(
    (a) => html`<option value="${a}"${form.selected.includes(a.toLowerCase()) ? html` selected` : ''}>${a}</option>`,
  )}</select>${fieldError('area', errors)}</div>
<div class="field"><label for="callsign">Callsign starts with</label>
<input id="callsign" name="callsign" value="${form.callsign}" maxlength="${MAX_CALLSIGN_LENGTH}" autocomplete="off" autocapitalize="characters" spellcheck="false" placeholder="EKCH"${describedBy('callsign', errors)}>${fieldError('callsign', errors)}</div>
<div class="actions"><button type="submit">Show</button> <a href="/">Clear filters</a></div>
</form>
${form.feed === null ? '' : html`<p class="feed"><a href="${form.feed}" type="text/calendar">Subscribe to these bookings in your calendar (iCalendar feed)</a></p>`}
</details>
</nav>`;
}

/** Links to each day shown, today and tomorrow by name: on a phone the days are a long scroll apart. */
function jumps(dates: readonly string[], today: string, tomorrow: string): Html {
  const name = (d: string) => (d === today ? 'Today' : d === tomorrow ? 'Tomorrow' : JUMP_DAY.format(Date.parse(d)));
  return html`<nav aria-label="Days" class="days"><ul>${dates.map((d) => html`<li><a href="#day-${d}">${name(d)}</a></li>`)}</ul></nav>
`;
}

interface Frame {
  siteName: string;
  assets: PageAssets;
  /** The feed the page links to as its alternate; null on an error page. */
  feed: string | null;
  title: string;
  content: Html;
  /** The account bar; absent when sign-in is off. */
  account?: AccountView | undefined;
}

/** The page around its content: head, header, footer. */
function frame(f: Frame): Buffer {
  const feed = f.feed ?? '/calendar/bookings.ics';
  const body = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${f.title}</title>
<link rel="icon" href="${f.assets.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${f.assets.css}">
<link rel="alternate" type="text/calendar" title="${f.siteName} bookings" href="${feed}">
<script src="${f.assets.js}" defer></script>
</head>
<body>
<header>
${f.account ? html`${accountBar(f.account)}\n` : ''}<h1>${f.siteName}</h1>
<p>Booked control positions, now and for the next 30 days. Times are UTC<span class="local-note" hidden>; your local time is shown below each</span>.</p>
</header>
${f.content}
<footer>
<p>${f.siteName} · <a href="${feed}">iCalendar feed</a> · <a href="/docs">API</a></p>
</footer>
</body>
</html>
`;
  return Buffer.from(body.toString());
}

/** The whole page's bytes. */
export function schedulePage(page: SchedulePage): Buffer {
  const days = byUtcDay(page.bookings);
  const feed = `/calendar/bookings.ics${feedQuery(page.filter)}`;
  const filtered = page.filter.areas.length + page.filter.prefixes.length + page.filter.callsigns.length > 0;
  const today = utcDay(page.now);
  const tomorrow = utcDay(page.now + DAY_MS);
  // Today and tomorrow always have their section (saying when nothing is booked), so their jumps always lead somewhere.
  if (days.size > 0) {
    for (const d of [today, tomorrow]) if (!days.has(d)) days.set(d, []);
  }
  const dates = [...days.keys()].sort();
  const form = filters({ areas: page.areas, selected: page.filter.areas, callsign: page.filter.prefixes[0] ?? page.filter.callsigns[0] ?? '', errors: {}, feed });
  const content = html`${form}
${days.size === 0 ? '' : jumps(dates, today, tomorrow)}<main>
${page.online ? onNowSection(page.online.controllers, page.bookings, page.online.now) : ''}
${
  days.size === 0
    ? html`<p class="empty">No bookings in the next 30 days${filtered ? ' match these filters' : ''}.</p>`
    : dates.map((date) => day(date, days.get(date)!, page.bookers))
}</main>`;
  return frame({ siteName: page.siteName, assets: page.assets, feed, title: `${page.siteName} — controller bookings`, content, account: page.account });
}

/** The page for a filter the server refused (422): the form again, each error next to its field. */
export function refusedFilterPage(page: ScheduleFrame, refused: RefusedFilter): Buffer {
  const form = filters({ areas: page.areas, selected: [refused.area.toLowerCase()], callsign: refused.callsign, errors: refused.errors, feed: null });
  // Errors of parameters the form does not have (a misspelt link) are listed under the message.
  const others = Object.entries(refused.errors).flatMap(([field, messages]) => (field === 'area' || field === 'callsign' ? [] : messages));
  const content = html`${form}
<main>
<p class="empty" role="alert">These filters cannot be used: see the message next to the field, or <a href="/">show every booking</a>.</p>
${others.length === 0 ? '' : html`<ul class="errors">${others.map((m) => html`<li>${m}</li>`)}</ul>`}
</main>`;
  return frame({ siteName: page.siteName, assets: page.assets, feed: null, title: `Filter not understood — ${page.siteName}`, content, account: page.account });
}
