// The schedule page's "On now" section: who staffs the division's positions now (from the
// network's data feed), and whether today's booked positions are staffed. Public: callsigns and
// times only, no names (the page's reduced form).
import type { CalendarBooking } from './calendar.repository.js';
import type { OnNow } from './calendar.service.js';
import { type Html, html } from '../../core/web/html.js';

const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const isoMinute = (ms: number): string => new Date(ms).toISOString().replace(/:\d{2}\.\d{3}Z$/, 'Z');

export function onNowSection(online: readonly OnNow[], bookings: readonly CalendarBooking[], now: number): Html {
  const staffed = new Set(online.map((o) => o.position.toUpperCase()));
  const today = bookings.filter((b) => b.deleted === 0 && utcDay(b.time_start) <= utcDay(now) && utcDay(b.time_end - 1) >= utcDay(now));
  return html`<section aria-labelledby="on-now" class="on-now">
    <h2 id="on-now">On now</h2>
    ${
      online.length === 0
        ? html`<p class="empty">Nobody is controlling a position of the division right now.</p>`
        : html`<ul>
            ${online.map(
              (o) =>
                html`<li>
                  <strong>${o.callsign}</strong>${o.callsign === o.position ? '' : html` (${o.position})`} since
                  <time datetime="${isoMinute(o.since)}">${hhmm(o.since)}</time> UTC
                </li>`,
            )}
          </ul>`
    }
    ${
      today.length === 0
        ? ''
        : html`<h3>Booked today</h3>
            <ul class="booked-today">
              ${today.map(
                (b) =>
                  html`<li>
                    ${b.callsign} ${hhmm(b.time_start)}–${hhmm(b.time_end)}:
                    ${staffed.has(b.callsign.toUpperCase()) ? html`<span class="staffed">staffed now</span>` : html`<span class="muted">not staffed now</span>`}
                  </li>`,
              )}
            </ul>`
    }
  </section> `;
}
