// GET /staff/users?q= (find a person by CID or name) and GET /staff/users/{cid} (the person:
// rating, membership, endorsements with their forms, roles, trainings, ATC hours, bookings).
import { ratingCode } from '../../members/domain/ratings.js';
import { personName } from '../../members/domain/names.js';
import type { StaffUserRow } from '../staff.repository.js';
import type { Person } from '../staff.types.js';
import type { Endorsement } from '../../endorsements/index.js';
import { whenText } from '../../bookings/index.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty, formError, type FormState, isoText, type StaffFrame, staffPage, utcText } from '../../roles/index.js';
import { endorsementActions, type IssueForm, issueForm, type RolesForm, rolesSection } from './person-forms.js';
import { trainingStatusDescription } from '../../members/domain/training-status.js';
import type { MemberHubExams } from '../../division-api/index.js';
import { hubExamsSection } from './hub-exams.js';

const fullName = (u: { id: number; first_name: string | null; last_name: string | null }) =>
  `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim() || String(u.id);

export interface SearchPage extends StaffFrame {
  q: string;
  found: StaffUserRow[];
  limit: number;
}

export function searchPage(p: SearchPage): Buffer {
  // prettier-ignore
  const main = html`<form method="get" action="/staff/users" class="search" role="search"><div class="field"><label for="q">CID or name</label>
<input id="q" name="q" type="search" value="${p.q}" /></div><button type="submit">Search</button></form>
${p.q === '' ? html`<p class="hint">Type a CID (or its first digits) or part of a name.</p>` : p.found.length === 0 ? empty(`Nobody matches “${p.q}”.`) : html`<p>${p.found.length === p.limit ? `The first ${p.limit} matches` : `${p.found.length} match${p.found.length === 1 ? '' : 'es'}`}:</p>
<ul class="cards">${p.found.map((u) => html`<li class="card"><p><a href="/staff/users/${u.id}">${fullName(u)}</a> (${u.id}), ${ratingCode(u.rating)}</p><p class="hint">${[u.division, u.subdivision].filter(Boolean).join(' / ') || 'no division'}</p></li>`)}</ul>`}`;
  return staffPage(p, 'People', main);
}

export interface PersonPage extends StaffFrame {
  person: Person;
  notice: string | null;
  state: FormState;
  now: number;
  /** Whether the viewer may issue (and change) endorsements at all; the services decide each one. */
  mayIssue: boolean;
  /** Endorsement id -> the message of a request the division's hub refused about it. */
  hubRefusals: ReadonlyMap<number, string>;
  /** The member's theory exams from the division's hub; null: no hub configured (no section). */
  hubExams: MemberHubExams | null;
  issue: Omit<IssueForm, 'csrf' | 'state' | 'cid'>;
  roles: Omit<RolesForm, 'csrf' | 'state' | 'cid' | 'roles'>;
}

function status(e: Endorsement, now: number): { text: string; live: boolean } {
  if (e.revoked) return { text: `revoked ${isoText(e.revoked_at)}`, live: false };
  const to = e.valid_to === null ? null : Date.parse(e.valid_to);
  if (to !== null && to <= now) return { text: `ended ${isoText(e.valid_to)}`, live: false };
  if (Date.parse(e.valid_from) > now) return { text: `from ${isoText(e.valid_from)} until ${isoText(e.valid_to)}`, live: true };
  return { text: e.valid_to === null ? 'active, no end' : `active until ${isoText(e.valid_to)}`, live: true };
}

function endorsementItem(e: Endorsement, p: PersonPage): Html {
  const s = status(e, p.now);
  const what =
    e.type === 'solo' ? e.positions.join(', ') : [e.rating, e.areas.length ? `(${e.areas.join(', ')})` : ''].filter(Boolean).join(' ');
  const today = new Date(p.now).toISOString().slice(0, 10);
  // prettier-ignore
  return html`<li class="card${s.live ? '' : ' ended'}"><p><strong>${e.type[0]!.toUpperCase()}${e.type.slice(1)}</strong> ${what}</p>
<p class="when">${s.text}${e.issued_by === null ? '' : html`, issued by ${personName(p.person.names, e.issued_by)}`}</p>
${hubRefusal(e, p)}
${s.live && p.mayIssue && e.type !== 's1' ? endorsementActions(e, p.csrf, p.state, today) : ''}</li>`;
}

/** A request the division's hub refused about the endorsement, with "Send again" for who may change endorsements. */
function hubRefusal(e: Endorsement, p: PersonPage): Html | '' {
  const message = p.hubRefusals.get(e.id);
  if (message === undefined) return '';
  // prettier-ignore
  return html`<p class="error" id="endorsement-${e.id}-hub">The division's hub refused a request about it: ${message}</p>
${p.mayIssue ? html`<form method="post" action="/staff/endorsements/${e.id}/hub-retry" class="inline">${p.csrf}<button type="submit" class="secondary" aria-describedby="endorsement-${e.id}-hub">Send again</button></form>` : ''}`;
}

export function personPage(p: PersonPage): Buffer {
  const { user, endorsements, roles, trainings, hours, bookings, names } = p.person;
  const name = fullName(user);
  // prettier-ignore
  const main = html`${formError(p.state, 'page', [])}<dl class="facts">
<dt>CID</dt><dd>${user.id}</dd><dt>Rating</dt><dd>${ratingCode(user.rating)}</dd>
<dt>Membership</dt><dd>${[user.region, user.division, user.subdivision].filter(Boolean).join(' / ') || 'unknown'}</dd>
<dt>Last signed in</dt><dd>${user.last_login_at === null ? 'never' : utcText(user.last_login_at)}</dd></dl>
<section aria-labelledby="endorsements-title"><h2 id="endorsements-title">Endorsements</h2>
${endorsements.length === 0 ? empty('No endorsements.') : html`<ul class="cards">${endorsements.map((e) => endorsementItem(e, p))}</ul>`}
${p.mayIssue ? html`<h3 id="issue-title">Issue an endorsement</h3>${issueForm({ ...p.issue, cid: user.id, csrf: p.csrf, state: p.state })}` : ''}</section>
<section aria-labelledby="roles-title"><h2 id="roles-title">Roles</h2>
${rolesSection({ ...p.roles, cid: user.id, csrf: p.csrf, state: p.state, roles })}</section>
<section aria-labelledby="trainings-title"><h2 id="trainings-title">Trainings</h2>
${trainings.length === 0 ? empty('No trainings.') : html`<ul class="cards">${trainings.map((t) => html`<li class="card"><p><a href="/staff/trainings/${t.id}"><strong>${t.area}</strong> ${t.ratings.join(', ')} (${t.type})</a></p><p>${trainingStatusDescription(t.status)}${t.paused_at === null ? '' : ', paused'}; mentors: ${t.mentors.map((m) => personName(names, m)).join(', ') || 'none'}</p></li>`)}</ul>`}</section>
${hubExamsSection(p.hubExams)}
<section aria-labelledby="hours-title"><h2 id="hours-title">ATC hours per area</h2>
${hours.length === 0 ? empty('No controlling recorded.') : html`<ul class="cards">${hours.map((h) => html`<li class="card"><p><strong>${h.area}</strong>: ${h.hours.toFixed(2)} h${h.required_hours === null ? '' : ` of ${h.required_hours} h`}</p><p>${h.active ? 'active' : 'not active'}${h.grace_until === null ? '' : `, grace until ${utcText(h.grace_until)}`}</p></li>`)}</ul>`}</section>
<section aria-labelledby="bookings-title"><h2 id="bookings-title">Upcoming bookings</h2>
${bookings.length === 0 ? empty('No upcoming bookings.') : html`<ul class="cards">${bookings.map((b) => html`<li class="card"><p><strong class="callsign">${b.callsign}</strong> ${b.position_name}</p><p class="when">${whenText(b)}</p></li>`)}</ul>`}</section>`;
  return staffPage(p, `${name} (${user.id})`, main, p.notice);
}
