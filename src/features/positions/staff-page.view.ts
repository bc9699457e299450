// GET /staff/positions (Administrators): add a position, change or remove one. Each position's
// form is inside a <details>, so the page works without a script.
import { RATING_CODES } from '../members/domain/ratings.js';
import type { PositionDetail } from './positions.schema.js';
import { type Html, html } from '../../core/web/html.js';
import { empty, field, formAction, formError, type FormState, options, type StaffFrame, staffPage, valueOf } from '../roles/index.js';

export interface PositionsPage extends StaffFrame {
  positions: PositionDetail[];
  /** The areas the viewer manages positions of. */
  areas: string[];
  state: FormState;
  notice: string | null;
}

const FIELDS = ['callsign', 'name', 'frequency', 'area', 'rating', 'required_facility'];

function positionFields(p: PositionsPage, form: string, current: PositionDetail | null): Html {
  const v = (name: keyof PositionDetail) => valueOf(p.state, form, name, current === null ? '' : (current[name] ?? ''));
  const s = p.state;
  // prettier-ignore
  return html`${current === null ? field({ form, name: 'callsign', label: 'Callsign', state: s, hint: 'A-Z, 0-9 and _, 3 to 30 characters, like EKCH_TWR.', control: (id, aria) => html`<input id="${id}" name="callsign" value="${v('callsign')}" autocapitalize="characters"${aria} />` }) : ''}
${field({ form, name: 'name', label: 'Name', state: s, control: (id, aria) => html`<input id="${id}" name="name" value="${v('name')}"${aria} />` })}
${field({ form, name: 'frequency', label: 'Frequency (MHz)', state: s, hint: '118.000 to 136.975, three decimals.', control: (id, aria) => html`<input id="${id}" name="frequency" value="${v('frequency')}" inputmode="decimal"${aria} />` })}
${field({ form, name: 'area', label: 'Area', state: s, control: (id, aria) => html`<select id="${id}" name="area"${aria}>${options(p.areas, v('area'))}</select>` })}
${field({ form, name: 'rating', label: 'Rating', state: s, control: (id, aria) => html`<select id="${id}" name="rating"${aria}>${options(RATING_CODES, v('rating') || 'S1')}</select>` })}
${field({ form, name: 'required_facility', label: 'Required facility endorsement', state: s, hint: 'Empty: none.', control: (id, aria) => html`<input id="${id}" name="required_facility" value="${v('required_facility')}"${aria} />` })}`;
}

function positionItem(pos: PositionDetail, p: PositionsPage): Html {
  const form = `position-${pos.callsign}`;
  const open = p.state.form === form;
  const manages = pos.area !== null && p.areas.includes(pos.area);
  // prettier-ignore
  return html`<li class="card"><p><strong class="callsign">${pos.callsign}</strong> ${pos.name}</p>
<p>${pos.frequency} · ${pos.area ?? 'no area'} · ${pos.rating}${pos.required_facility ? ` · needs ${pos.required_facility}` : ''}</p>
${manages ? html`<details${open ? html` open` : ''}><summary>Change or remove ${pos.callsign}</summary>
<form method="post" action="${formAction(`/staff/positions/${pos.callsign}`, form)}" class="staff-form" novalidate>${p.csrf}${formError(p.state, form, FIELDS)}
${positionFields(p, form, pos)}<div class="actions"><button type="submit">Save ${pos.callsign}</button></div></form>
<form method="post" action="/staff/positions/${pos.callsign}/remove" class="inline">${p.csrf}<button type="submit" class="danger">Remove ${pos.callsign}</button></form>
</details>` : ''}</li>`;
}

export function positionsPage(p: PositionsPage): Buffer {
  const form = 'position-new';
  // prettier-ignore
  const main = html`<p><a href="/staff/facilities">Facilities and their tiers</a></p>
<section aria-labelledby="add-title"><h2 id="add-title">Add a position</h2>
<form method="post" action="${formAction('/staff/positions', form)}" class="staff-form" novalidate>${p.csrf}${formError(p.state, form, FIELDS)}
${positionFields(p, form, null)}<div class="actions"><button type="submit">Add position</button></div></form></section>
<section aria-labelledby="list-title"><h2 id="list-title">Positions (${p.positions.length})</h2>
${p.positions.length === 0 ? empty('No positions yet.') : html`<ul class="cards">${p.positions.map((pos) => positionItem(pos, p))}</ul>`}</section>`;
  return staffPage(p, 'Positions', main, p.notice);
}
