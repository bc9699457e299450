// GET /staff/sweatbox and GET /staff/sweatbox/{id} (contract §23): the sessions not yet over, each with
// Edit and Delete for those who may change it, a form to book one, and a session's own edit page.
import { NOTES_MAX } from '../domain.js';
import type { SessionRow } from '../sweatbox.repository.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty, field, formAction, type FormState, formError, options, staffPage, type StaffFrame, valueOf } from '../../roles/index.js';

export interface ListedSession {
  session: SessionRow;
  /** The viewer may change and delete it (its booker, or a Moderator/Administrator of its area). */
  mayChange: boolean;
}

export interface SweatboxPage extends StaffFrame {
  sessions: readonly ListedSession[];
  callsigns: readonly string[];
  today: string;
  state: FormState;
  notice: string | null;
}

const FIELDS = ['position', 'date', 'start', 'end', 'notes'];
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** "2026-03-10 18:00–20:00 UTC" (the end's day too when it is the next). */
export const whenOf = (s: { time_start: number; time_end: number }): string =>
  `${day(s.time_start)} ${hhmm(s.time_start)}–${day(s.time_end) === day(s.time_start) ? '' : `${day(s.time_end)} `}${hhmm(s.time_end)} UTC`;

function sessionForm(p: SweatboxPage | SessionPage, form: string, action: string, initial: Record<string, string>, button: string): Html {
  const { state } = p;
  const v = (name: string) => valueOf(state, form, name, initial[name] ?? '');
  const control = {
    position: (id: string, aria: Html) =>
      html`<select id="${id}" name="position" ${aria}>
        ${options(p.callsigns, v('position'))}
      </select>`,
    date: (id: string, aria: Html) => html`<input type="date" id="${id}" name="date" value="${v('date')}" ${aria} />`,
    start: (id: string, aria: Html) => html`<input type="time" id="${id}" name="start" value="${v('start')}" ${aria} />`,
    end: (id: string, aria: Html) => html`<input type="time" id="${id}" name="end" value="${v('end')}" ${aria} />`,
    notes: (id: string, aria: Html) =>
      html`<input type="text" id="${id}" name="notes" maxlength="${NOTES_MAX}" value="${v('notes')}" ${aria} />`,
  };
  const f = (name: keyof typeof control, label: string, hint?: string) =>
    field({ form, name, label, state, control: control[name], ...(hint === undefined ? {} : { hint }) });
  // prettier-ignore
  return html`<form method="post" action="${formAction(action, form)}" class="staff-form" novalidate>${p.csrf}
${formError(state, form, FIELDS)}${f('position', 'Position')}${f('date', 'Day (UTC)', 'YYYY-MM-DD')}
<div class="times">${f('start', 'Start (UTC)', 'HH:MM')}${f('end', 'End (UTC)', 'HH:MM; an end before the start is on the next day. 15 minutes to 8 hours.')}</div>
${f('notes', 'Notes', `Optional, up to ${NOTES_MAX} characters`)}
<div class="actions"><button type="submit">${button}</button></div></form>`;
}

export function sweatboxPage(p: SweatboxPage): Buffer {
  // prettier-ignore
  const list = p.sessions.length === 0 ? empty('No sessions booked.') : html`<ul class="reports">${p.sessions.map(({ session: s, mayChange }) => html`<li><h3>${s.callsign} <span class="hint">${whenOf(s)}</span></h3>
<p>Booked by ${s.booker}</p>${s.notes === '' ? '' : html`<p>${s.notes}</p>`}${mayChange ? html`<div class="actions"><a href="/staff/sweatbox/${s.id}" aria-label="${`Edit the session on ${s.callsign} ${whenOf(s)}`}">Edit</a>
<form method="post" action="/staff/sweatbox/${s.id}/delete" class="inline">${p.csrf}<button type="submit" class="secondary" aria-label="${`Delete the session on ${s.callsign} ${whenOf(s)}`}">Delete</button></form></div>` : ''}</li>`)}</ul>`;
  // prettier-ignore
  const main = html`<p>Sessions on the training server (the sweatbox). They are not bookings: they are never sent to the network nor shown on the schedule.</p>
<section aria-labelledby="sessions-title"><h2 id="sessions-title">Sessions</h2>${list}</section>
<section aria-labelledby="session-new-title"><h2 id="session-new-title">Book a session</h2>
${sessionForm(p, 'session-new', '/staff/sweatbox', { position: p.callsigns[0] ?? '', date: p.today }, 'Book session')}</section>`;
  return staffPage(p, 'Sweatbox', main, p.notice);
}

export interface SessionPage extends StaffFrame {
  session: SessionRow;
  callsigns: readonly string[];
  state: FormState;
}

export function sessionPage(p: SessionPage): Buffer {
  const s = p.session;
  const initial = { position: s.callsign, date: day(s.time_start), start: hhmm(s.time_start), end: hhmm(s.time_end), notes: s.notes };
  // prettier-ignore
  const main = html`<p><a href="/staff/sweatbox">All sessions</a></p><p>Booked by ${s.booker}</p>
${sessionForm(p, 'session', `/staff/sweatbox/${s.id}`, initial, 'Save session')}`;
  return staffPage(p, `Sweatbox session on ${s.callsign}`, main);
}
