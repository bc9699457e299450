// Members' own pages (docs/booking-pages.md): the booking form (new and edit) and "My bookings"
// with the member's calendar feed address. Server-rendered, every value escaped by html`…`,
// the schedule page's stylesheet; no script needed.
import { TAG_NAMES } from '../domain/who-may-book.js';
import type { Tag } from '../domain/flags.js';
import type { MemberFormValues } from '../domain/member-form.js';
import { flagLabels } from '../../calendar/domain.js';
import type { FieldErrors } from '../../../core/domain/errors.js';
import type { MemberBooking, OfferedPosition } from '../member-bookings.repository.js';
import { type Html, html } from '../../../core/web/html.js';
import { type AccountView, memberFooter, pageHead, siteHeader } from '../../../core/web/page-frame.js';
import type { PageAssets } from '../../../core/web/page-assets.js';

export interface PageFrame {
  siteName: string;
  assets: PageAssets;
  account: AccountView;
  /** The hidden CSRF input for the page's forms. */
  csrf: Html;
}

const SHORT_DAY_FORMAT = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
/** "Tue 12 Mar 2030" (without the comma Intl puts after the weekday). */
const shortDay = (ms: number): string => SHORT_DAY_FORMAT.format(ms).replace(',', '');
const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** "2026-11-26" as "26/11/2026". */
const dayMonthYear = (iso: string): string => iso.split('-').reverse().join('/');

/** "Thu 12 Mar 2030, 10:00–12:00 UTC" (the end's day too when it is another). */
export function whenText(b: { time_start: number; time_end: number }): string {
  const sameDay = isoDate(b.time_start) === isoDate(b.time_end - 1);
  const end = sameDay ? hhmm(b.time_end) : `${shortDay(b.time_end)} ${hhmm(b.time_end)}`;
  return `${shortDay(b.time_start)}, ${hhmm(b.time_start)}–${end} UTC`;
}

/** The form's values for a stored booking (edit). */
export function valuesOf(b: MemberBooking, tag: Tag | null): MemberFormValues {
  return {
    position: b.callsign,
    date: isoDate(b.time_start),
    start_at: hhmm(b.time_start),
    end_at: hhmm(b.time_end),
    tag: tag === null ? '' : String(tag),
  };
}

/** A member's page: the account bar, the title, the content and the footer's links. */
export function frame(f: PageFrame, title: string, main: Html): Buffer {
  const body = html`<!doctype html>
    <html lang="en">
      ${pageHead(title, f.siteName, f.assets)}
      <body>
        ${siteHeader(f.siteName, f.account)}
        <main>
          <h1>${title}</h1>
          ${main}
        </main>
        ${memberFooter(f.account)}
      </body>
    </html> `;
  return Buffer.from(body.toString());
}

const errorId = (field: string) => `${field}-error`;

export function fieldError(field: string, errors: FieldErrors): Html | '' {
  const messages = errors[field];
  return messages ? html`<p class="error" id="${errorId(field)}">${messages.join(' ')}</p>` : '';
}

/** aria-describedby the field's hint and error, aria-invalid when it has one. */
export function described(field: string, errors: FieldErrors, hint?: string): Html {
  const ids = [hint, errors[field] ? errorId(field) : undefined].filter((s): s is string => s !== undefined);
  return html`${ids.length > 0 ? html` aria-describedby="${ids.join(' ')}"` : ''}${errors[field] ? html` aria-invalid="true"` : ''}`;
}

export interface BookingForm extends PageFrame {
  /** null: a new booking (POST /bookings); else the booking changed (POST /bookings/{id}). */
  bookingId: number | null;
  positions: readonly OfferedPosition[];
  /** The tags the member may choose on at least one of the positions. */
  tags: readonly Tag[];
  values: MemberFormValues;
  errors: FieldErrors;
  /** Today (YYYY-MM-DD, UTC): the date input's minimum. */
  today: string;
}

/** Errors of fields the form has no input for (an unknown booker), shown above it. */
const FORM_FIELDS = new Set(['position', 'date', 'start_at', 'end_at', 'tag']);

export function bookingFormPage(f: BookingForm): Buffer {
  const { values, errors } = f;
  const title = f.bookingId === null ? 'Book a position' : 'Change booking';
  const action = f.bookingId === null ? '/bookings' : `/bookings/${f.bookingId}`;
  const other = Object.entries(errors).filter(([field]) => !FORM_FIELDS.has(field));
  const hasErrors = Object.keys(errors).length > 0;
  if (f.positions.length === 0) {
    // prettier-ignore
    return frame(f, title, html`<p class="notice">There is no position you may book: booking needs rating S1 or above and activity in an area, a visiting endorsement for it, or an open training there.</p>`);
  }
  // prettier-ignore
  const main = html`${hasErrors ? html`<p class="error" role="alert">The booking was not saved: see the messages below.</p>` : ''}${other.map(([, messages]) => html`<p class="error">${messages.join(' ')}</p>`)}
<form method="post" action="${action}" class="booking-form" novalidate>
${f.csrf}
<div class="field"><label for="position">Position</label>
<select id="position" name="position" required${described('position', errors)}>${f.positions.map(
    (p) => html`<option value="${p.callsign}"${p.callsign === values.position.toUpperCase() ? html` selected` : ''}>${p.callsign} — ${p.name}</option>`,
  )}</select>${fieldError('position', errors)}</div>
<div class="field"><label for="date">Date</label>
<input type="date" id="date" name="date" value="${values.date}" min="${f.today}" required${described('date', errors, 'date-hint')}>
<p class="hint" id="date-hint">Day (UTC), as DD/MM/YYYY or YYYY-MM-DD, e.g. ${dayMonthYear(f.today)}</p>${fieldError('date', errors)}</div>
<div class="times">
<div class="field"><label for="start_at">Start (UTC)</label>
<input type="time" id="start_at" name="start_at" value="${values.start_at}" required${described('start_at', errors)}>${fieldError('start_at', errors)}</div>
<div class="field"><label for="end_at">End (UTC)</label>
<input type="time" id="end_at" name="end_at" value="${values.end_at}" required${described('end_at', errors, 'end-hint')}>
<p class="hint" id="end-hint">An end before the start is on the next day.</p>${fieldError('end_at', errors)}</div>
</div>
<div class="field"><label for="tag">Type</label>
<select id="tag" name="tag"${described('tag', errors)}><option value="">Controlling</option>${f.tags.map(
    (t) => html`<option value="${t}"${values.tag === String(t) ? html` selected` : ''}>${TAG_NAMES[t]}</option>`,
  )}</select>${fieldError('tag', errors)}</div>
<div class="actions"><button type="submit">${f.bookingId === null ? 'Book' : 'Save changes'}</button> <a href="/my/bookings">My bookings</a></div>
</form>`;
  return frame(f, title, main);
}

export interface MyBookings extends PageFrame {
  bookings: readonly MemberBooking[];
  /** What was just done (after a 303), or null. */
  notice: string | null;
  /** The member's calendar feed address (absolute), or null before they made one. */
  feedUrl: string | null;
}

function bookingItem(b: MemberBooking, csrf: Html): Html {
  const flags = flagLabels(b);
  const when = whenText(b);
  // prettier-ignore
  return html`<li class="booking">
<p><strong class="callsign">${b.callsign}</strong> ${b.position_name}${flags.map((l) => html` <span class="flag flag-${l.toLowerCase()}">${l}</span>`)}</p>
<p class="when">${when}</p>
<div class="actions"><a href="/bookings/${b.id}/edit" aria-label="Edit ${b.callsign}, ${when}">Edit</a>
<form method="post" action="/bookings/${b.id}/cancel" class="inline">${csrf}<button type="submit" class="secondary" aria-label="Cancel ${b.callsign}, ${when}">Cancel</button></form></div>
</li>`;
}

export function myBookingsPage(p: MyBookings): Buffer {
  // prettier-ignore
  const feed = p.feedUrl === null
    ? html`<p>Subscribe to your own bookings in a calendar app, at a private address.</p>
<form method="post" action="/my/calendar" class="inline">${p.csrf}<button type="submit">Make my calendar address</button></form>`
    : html`<p>Your bookings only, for a calendar app. Keep this address to yourself: anyone who has it can read your bookings.</p>
<div class="field"><label for="feed-url">Address</label><input id="feed-url" class="feed-url" readonly value="${p.feedUrl}"></div>
<form method="post" action="/my/calendar" class="inline">${p.csrf}<button type="submit" class="secondary">Renew the address (the old one stops working)</button></form>`;
  // prettier-ignore
  const main = html`${p.notice === null ? '' : html`<p class="notice" role="status">${p.notice}</p>`}
<p><a href="/bookings/new">Book a position</a></p>
${p.bookings.length === 0 ? html`<p class="empty">You have no upcoming bookings.</p>` : html`<ul class="bookings">${p.bookings.map((b) => bookingItem(b, p.csrf))}</ul>`}
<section aria-labelledby="feed-title" class="feed-box">
<h2 id="feed-title">Your calendar feed</h2>
${feed}
</section>`;
  return frame(p, 'My bookings', main);
}
