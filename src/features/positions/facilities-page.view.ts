// GET /staff/facilities (Administrators, contract §22): every facility with its tier and description,
// each with a form to change them, and a form to give a tier to a name no position requires yet.
import { type Html, html } from '../../core/web/html.js';
import { empty, field, formAction, formError, type FormState, options, type StaffFrame, staffPage, valueOf } from '../roles/index.js';
import type { Facility } from './facilities.schema.js';

export interface FacilitiesPage extends StaffFrame {
  facilities: Facility[];
  state: FormState;
  notice: string | null;
}

const TIERS = [
  { value: '', text: 'None' },
  { value: 'T1', text: 'Tier 1 (T1)' },
  { value: 'T2', text: 'Tier 2 (T2)' },
];
const FIELDS = ['name', 'tier', 'description'];

function facilityForm(p: FacilitiesPage, form: string, f: Facility | null): Html {
  const v = (n: string, fallback: string) => valueOf(p.state, form, n, fallback);
  // prettier-ignore
  return html`<form method="post" action="${formAction('/staff/facilities', form)}" class="staff-form" novalidate>${p.csrf}${formError(p.state, form, FIELDS)}
${f ? html`<input type="hidden" name="name" value="${f.name}" />` : field({ form, name: 'name', label: 'Name', state: p.state, hint: 'As positions require it, e.g. T1 EKCH TWR.', control: (id, aria) => html`<input id="${id}" name="name" value="${v('name', '')}"${aria} />` })}
${field({ form, name: 'tier', label: f ? `Tier of ${f.name}` : 'Tier', state: p.state, control: (id, aria) => html`<select id="${id}" name="tier"${aria}>${options(TIERS, v('tier', f?.tier ?? ''))}</select>` })}
${field({ form, name: 'description', label: 'Description', state: p.state, hint: 'Up to 500 characters.', control: (id, aria) => html`<input id="${id}" name="description" value="${v('description', f?.description ?? '')}"${aria} />` })}
<div class="actions"><button type="submit">Save${f ? ` ${f.name}` : ''}</button></div></form>`;
}

export function facilitiesPage(p: FacilitiesPage): Buffer {
  // prettier-ignore
  const main = html`<p>A facility is the endorsement name positions require. Its tier (T1, T2 or none) says which of the hub's tier endorsements it is. <a href="/staff/positions">Positions</a></p>
<section aria-labelledby="list-title"><h2 id="list-title">Facilities (${p.facilities.length})</h2>
${p.facilities.length === 0 ? empty('No position requires a facility yet.') : html`<ul class="cards">${p.facilities.map((f, i) => html`<li class="card"><p><strong>${f.name}</strong> · ${f.tier ?? 'no tier'}${f.description ? ` · ${f.description}` : ''}</p>
<details${p.state.form === `facility-${i}` ? html` open` : ''}><summary>Change ${f.name}</summary>${facilityForm(p, `facility-${i}`, f)}</details></li>`)}</ul>`}</section>
<section aria-labelledby="add-title"><h2 id="add-title">Another facility</h2>${facilityForm(p, 'facility-new', null)}</section>`;
  return staffPage(p, 'Facilities', main, p.notice);
}
