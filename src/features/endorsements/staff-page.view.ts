// GET /staff/endorsements?type=&area=: the active endorsements of the viewer's areas, newest
// first, with those ending within 7 days marked.
import type { Named } from '../roles/domain.js';
import type { Endorsement } from './endorsements.schema.js';
import { html } from '../../core/web/html.js';
import { empty, isoText, options, type StaffFrame, staffPage } from '../roles/staff-frame.view.js';

export interface EndorsementsPage extends StaffFrame {
  type: string;
  area: string;
  areas: string[];
  endorsements: Array<Named<Endorsement>>;
  now: number;
  soonMs: number;
}

const TYPES = [
  { value: '', text: 'All types' },
  { value: 'solo', text: 'Solo' },
  { value: 'facility', text: 'Facility' },
  { value: 'visiting', text: 'Visiting' },
  { value: 'examiner', text: 'Examiner' },
];

export function endorsementsPage(p: EndorsementsPage): Buffer {
  const ending = (e: Endorsement) => e.valid_to !== null && Date.parse(e.valid_to) - p.now <= p.soonMs;
  // prettier-ignore
  const main = html`<form method="get" action="/staff/endorsements" class="filters"><div class="field"><label for="type">Type</label>
<select id="type" name="type">${options(TYPES, p.type)}</select></div>
<div class="field"><label for="area">Area</label><select id="area" name="area">${options([{ value: '', text: 'All my areas' }, ...p.areas], p.area)}</select></div>
<button type="submit">Show</button></form>
${p.endorsements.length === 0 ? empty('No active endorsements match.') : html`<p>${p.endorsements.length} active, newest first.</p><ul class="cards">${p.endorsements.map(({ item: e, name }) => html`<li class="card"><p><a href="/staff/users/${e.user_id}">${name}</a> (${e.user_id}): <strong>${e.type}</strong> ${e.type === 'solo' ? e.positions.join(', ') : e.rating}${e.areas.length ? ` (${e.areas.join(', ')})` : ''}</p>
<p class="when">${e.valid_to === null ? 'No end' : `Until ${isoText(e.valid_to)}`}${ending(e) ? html` <span class="flag flag-ending">Ends within 7 days</span>` : ''}</p></li>`)}</ul>`}`;
  return staffPage(p, 'Active endorsements', main);
}
