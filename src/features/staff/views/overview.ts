// GET /staff: what needs attention in the viewer's areas (the queue, open trainings without a
// mentor, solos ending within 7 days), their roles and what each lets them do.
import { trainingStatusDescription } from '../../members/domain/training-status.js';
import type { Overview } from '../staff.types.js';
import type { TrainingRecord } from '../../trainings/index.js';
import { studentsTable } from './students.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty, isoText, type StaffFrame, staffPage, utcText } from '../../roles/index.js';

export interface OverviewPage extends StaffFrame {
  /** "Administrator (division-wide)", "Moderator in Denmark", … */
  roles: string[];
  /** What those roles allow, in words. */
  may: string[];
  overview: Overview;
}

const person = (cid: number, name: string): Html => html`<a href="/staff/users/${cid}">${name}</a> (${cid})`;

export function overviewPage(p: OverviewPage): Buffer {
  const { queue, unmentored, endingSolos, opens, students } = p.overview;
  // Only a training the viewer may open is a link (a mentor opens their own trainees' only).
  const training = (t: TrainingRecord) => {
    const what = `${t.area}, ${t.ratings.join(', ') || t.type}`;
    return opens.has(t.id) ? html`<a href="/staff/trainings/${t.id}">${what}</a>` : html`${what}`;
  };
  // prettier-ignore
  const mine = students === null ? '' : html`<section aria-labelledby="students-title">
<h2 id="students-title">My students (${students.length})</h2>
${studentsTable(students)}
</section>`;
  // prettier-ignore
  const main = html`${mine}<section aria-labelledby="you-title">
<h2 id="you-title">Your roles</h2>
<ul>${p.roles.map((r) => html`<li>${r}</li>`)}</ul>
<p>You may:</p>
<ul>${p.may.map((m) => html`<li>${m}</li>`)}</ul>
<form method="get" action="/staff/users" class="search" role="search"><div class="field"><label for="q">Find a person</label>
<input id="q" name="q" type="search" placeholder="CID or name" /></div><button type="submit">Search</button></form>
</section>
<section aria-labelledby="solos-title">
<h2 id="solos-title">Solo endorsements ending within 7 days (${endingSolos.length})</h2>
${endingSolos.length === 0 ? empty('None.') : html`<ul class="cards">${endingSolos.map(({ item: e, name }) => html`<li class="card"><p>${person(e.user_id, name)}: solo on <strong class="callsign">${e.positions.join(', ')}</strong></p><p class="when">Ends ${isoText(e.valid_to)}</p></li>`)}</ul>`}
</section>
<section aria-labelledby="unmentored-title">
<h2 id="unmentored-title">Open trainings without a mentor (${unmentored.length})</h2>
${unmentored.length === 0 ? empty('None.') : html`<ul class="cards">${unmentored.map(({ item: t, name }) => html`<li class="card"><p>${person(t.user_id, name)}: ${training(t)}</p><p>${trainingStatusDescription(t.status)}</p></li>`)}</ul>`}
</section>
<section aria-labelledby="queue-title">
<h2 id="queue-title">Training queue (${queue.length})</h2>
${queue.length === 0 ? empty('Nobody is waiting.') : html`<ol class="cards">${queue.map(({ item: t, name }) => html`<li class="card"><p>${person(t.user_id, name)}: ${training(t)}</p><p class="when">Waiting since ${utcText(t.created_at)}</p></li>`)}</ol>`}
</section>`;
  return staffPage(p, 'Staff', main);
}
