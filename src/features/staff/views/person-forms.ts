// The person page's forms (contract §17): issue an endorsement, change its end or revoke it, grant
// and revoke roles. Field names are the API's (type, rating, areas, positions, valid_to; role,
// area), so the services' errors land beside their fields.
import type { IssueChoices } from './types.js';
import type { Endorsement } from '../../endorsements/endorsements.schema.js';
import type { RoleHeld } from '../../roles/roles.repository.js';
import { type Html, html } from '../../../core/web/html.js';
import { dateOf, field, formAction, formError, type FormState, options, valueOf } from '../../roles/staff-frame.view.js';

export const ISSUE_TYPES = [
  { value: 'solo', text: 'Solo (one position)' },
  { value: 'facility', text: 'Facility' },
  { value: 'visiting', text: 'Visiting' },
  { value: 'examiner', text: 'Examiner' },
];

export interface IssueForm {
  cid: number;
  csrf: Html;
  state: FormState;
  choices: IssueChoices;
  areas: string[];
  today: string;
}

export function issueForm(f: IssueForm): Html {
  const form = 'issue';
  const v = (name: string, fallback = '') => valueOf(f.state, form, name, fallback);
  const chosenAreas = new Set(v('areas').split(',').filter(Boolean));
  const fields = ['type', 'rating', 'areas', 'positions', 'valid_to'];
  // prettier-ignore
  return html`<form method="post" action="${formAction(`/staff/users/${f.cid}/endorsements`, form)}" class="staff-form" novalidate>
${f.csrf}${formError(f.state, form, fields)}
${field({ form, name: 'type', label: 'Type', state: f.state, control: (id, aria) => html`<select id="${id}" name="type"${aria}>${options(ISSUE_TYPES, v('type', 'solo'))}</select>` })}
${field({ form, name: 'positions', label: 'Position (solo)', state: f.state, control: (id, aria) => html`<select id="${id}" name="positions"${aria}><option value="">—</option>${options(f.choices.positions.map((p) => ({ value: p.callsign, text: `${p.callsign} — ${p.name}` })), v('positions'))}</select>` })}
${field({ form, name: 'rating', label: 'Rating or facility', state: f.state, hint: `Facility: ${f.choices.facilities.join(', ') || 'no position requires one'}. Visiting: a rating code; examiner: S2 to C3.`, control: (id, aria) => html`<input id="${id}" name="rating" value="${v('rating')}" list="${id}-names" autocomplete="off"${aria} /><datalist id="${id}-names">${options(f.choices.facilities, '')}</datalist>` })}
<fieldset class="field"${errorsAria(f.state, form)}><legend>Areas (visiting, examiner)</legend>
<div class="checks">${f.areas.map((a) => html`<label class="check"><input type="checkbox" name="areas" value="${a}"${chosenAreas.has(a) ? html` checked` : ''} /> ${a}</label>`)}</div>
${f.state.form === form && f.state.errors.areas ? html`<p class="error" id="issue-areas-error">${f.state.errors.areas.join(' ')}</p>` : ''}</fieldset>
${field({ form, name: 'valid_to', label: 'Last day (UTC)', state: f.state, hint: 'Valid until 23:59 UTC that day; empty: no end (not for a solo, which runs at most 30 days).', control: (id, aria) => html`<input id="${id}" name="valid_to" type="date" min="${f.today}" value="${v('valid_to')}"${aria} />` })}
<div class="actions"><button type="submit">Issue</button></div>
</form>`;
}

const errorsAria = (state: FormState, form: string): Html | '' =>
  state.form === form && state.errors.areas ? html` aria-describedby="issue-areas-error"` : '';

/** Change the end of an active (or upcoming) endorsement, and revoke it. */
export function endorsementActions(e: Endorsement, csrf: Html, state: FormState, today: string): Html {
  const form = `end-${e.id}`;
  const label = e.type === 'solo' ? 'Shorten to' : 'Change the last day to';
  // prettier-ignore
  return html`<div class="card-actions">
<form method="post" action="${formAction(`/staff/endorsements/${e.id}/end`, form)}" class="inline-form" novalidate>${csrf}${formError(state, form, ['valid_to'])}
${field({ form, name: 'valid_to', label, state, control: (id, aria) => html`<input id="${id}" name="valid_to" type="date" min="${today}" value="${valueOf(state, form, 'valid_to', dateOf(e.valid_to))}"${aria} />` })}
<button type="submit" class="secondary">${e.type === 'solo' ? 'Shorten' : 'Change end'}</button></form>
<form method="post" action="/staff/endorsements/${e.id}/revoke" class="inline">${csrf}<button type="submit" class="danger" aria-label="Revoke endorsement ${e.id}">Revoke</button></form>
</div>`;
}

export interface RolesForm {
  cid: number;
  csrf: Html;
  state: FormState;
  roles: RoleHeld[];
  /** Roles the viewer may revoke (by index in `roles`). */
  revocable: boolean[];
  /** What the viewer may grant: role names, and areas ('' for division-wide). */
  grantRoles: string[];
  grantAreas: Array<{ value: string; text: string }>;
}

export function rolesSection(f: RolesForm): Html {
  const form = 'role';
  // prettier-ignore
  return html`${f.roles.length === 0 ? html`<p class="none">No roles.</p>` : html`<ul class="cards">${f.roles.map((r, i) => html`<li class="card"><p><strong>${r.role}</strong> ${r.area === null ? 'division-wide' : html`in ${r.area}`}</p>${f.revocable[i] ? html`<form method="post" action="/staff/users/${f.cid}/roles/revoke" class="inline">${f.csrf}<input type="hidden" name="role" value="${r.role}" /><input type="hidden" name="area" value="${r.area ?? ''}" /><button type="submit" class="danger" aria-label="Revoke ${r.role} ${r.area ?? 'division-wide'}">Revoke</button></form>` : ''}</li>`)}</ul>`}
${f.grantRoles.length === 0 ? '' : html`<form method="post" action="${formAction(`/staff/users/${f.cid}/roles`, form)}" class="staff-form" novalidate>${f.csrf}${formError(f.state, form, ['role', 'area'])}
<h3>Grant a role</h3>
${field({ form, name: 'role', label: 'Role', state: f.state, control: (id, aria) => html`<select id="${id}" name="role"${aria}>${options(f.grantRoles, valueOf(f.state, form, 'role'))}</select>` })}
${field({ form, name: 'area', label: 'Area', state: f.state, control: (id, aria) => html`<select id="${id}" name="area"${aria}>${options(f.grantAreas, valueOf(f.state, form, 'area', f.grantAreas[0]?.value ?? ''))}</select>` })}
<div class="actions"><button type="submit">Grant</button></div></form>`}`;
}
