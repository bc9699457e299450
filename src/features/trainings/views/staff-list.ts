// GET /staff/trainings (contract §18): the queue and the open trainings of the viewer's areas,
// filterable by area and status, a form creating a training, and the examinations overview:
// upcoming and past, with examiner and result.
import { TRAINING_TYPES } from '../domain.js';
import { trainingStatusDescription } from '../../members/domain/training-status.js';
import type { TrainingRecord } from '../trainings.repository.js';
import type { TrainingList } from '../desk.service.js';
import { personName } from '../../members/domain/names.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty, field, formAction, type FormState, formError, options, staffPage, type StaffFrame, valueOf } from '../../roles/index.js';

export interface TrainingsPage extends StaffFrame {
  list: TrainingList;
  areas: string[];
  filter: { area: string; status: string };
  today: string;
  state: FormState;
  notice: string | null;
  /** The areas (names) where the viewer may create a training; none: no form (a mentor's page). */
  createIn?: string[];
}

const day = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().slice(0, 10));
const STATUSES = [0, 1, 2, 3].map((s) => ({ value: String(s), text: trainingStatusDescription(s) }));

export function trainingsPage(p: TrainingsPage): Buffer {
  const name = (cid: number) => personName(p.list.names, cid);
  const link = (t: TrainingRecord) => html`<a href="/staff/trainings/${t.id}">${name(t.user_id)}</a>`;
  const upcoming = p.list.examinations.filter((x) => x.examination_date >= p.today).reverse();
  const past = p.list.examinations.filter((x) => x.examination_date < p.today);
  const exams = (rows: typeof past, caption: string) =>
    rows.length === 0
      ? empty(`No ${caption.toLowerCase()}.`)
      : html`<table>
          <caption>
            ${caption}
          </caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Student</th>
              <th scope="col">Position</th>
              <th scope="col">Examiner</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            ${rows.map(
              (x) =>
                html`<tr>
                  <td>${x.examination_date}</td>
                  <td><a href="/staff/trainings/${x.training_id}">${name(x.user_id)}</a></td>
                  <td>${x.position}</td>
                  <td>${name(x.examiner_id)}</td>
                  <td>${x.result}</td>
                </tr>`,
            )}
          </tbody>
        </table>`;
  const form = 'training-new';
  const input =
    (n: string, type = 'text') =>
    (id: string, aria: Html) =>
      html`<input type="${type}" id="${id}" name="${n}" value="${valueOf(p.state, form, n)}" ${aria} />`;
  // prettier-ignore
  const main = html`<form method="get" action="/staff/trainings" class="filters">
  <div class="field"><label for="f-area">Area</label><select id="f-area" name="area"><option value="">All my areas</option>${options(p.areas, p.filter.area)}</select></div>
  <div class="field"><label for="f-status">Status</label><select id="f-status" name="status"><option value="">Every open status</option>${options(STATUSES, p.filter.status)}</select></div>
  <button type="submit">Show</button>
</form>
<section aria-labelledby="queue-title"><h2 id="queue-title">Queue</h2>
${p.list.queue.length === 0 ? empty('Nobody is waiting.') : html`<ol class="queue">${p.list.queue.map((t) => html`<li>${link(t)} — ${t.area}, ${t.ratings.join(', ')}, ${t.type}, applied ${day(t.created_at)}${t.paused_at !== null ? ' (paused)' : ''}</li>`)}</ol>`}
</section>
<section aria-labelledby="open-title"><h2 id="open-title">Open trainings</h2>
${p.list.open.length === 0 ? empty('No open trainings past the queue.') : html`<ul class="trainings">${p.list.open.map((t) => html`<li>${link(t)} — ${t.area}, ${t.ratings.join(', ')}: <strong>${trainingStatusDescription(t.status)}</strong>${t.mentors.length === 0 ? ', no mentor' : html`, mentors ${t.mentors.map(name).join(', ')}`}</li>`)}</ul>`}
</section>
<section aria-labelledby="exams-title"><h2 id="exams-title">Examinations</h2>${exams(upcoming, 'Upcoming examinations')}${exams(past, 'Past examinations')}</section>
${p.createIn?.length === 0 ? '' : html`<section aria-labelledby="new-title"><h2 id="new-title">Create a training</h2>
<form method="post" action="${formAction('/staff/trainings', form)}" class="staff-form" novalidate>${p.csrf}
${formError(p.state, form, ['user_id', 'area', 'type', 'ratings', 'status'])}
${field({ form, name: 'user_id', label: 'Student (CID)', state: p.state, control: input('user_id') })}
${field({ form, name: 'area', label: 'Area', state: p.state, control: (id, aria) => html`<select id="${id}" name="area" ${aria}>${options(p.createIn ?? p.areas, valueOf(p.state, form, 'area'))}</select>` })}
${field({ form, name: 'type', label: 'Type', state: p.state, control: (id, aria) => html`<select id="${id}" name="type" ${aria}>${options([...TRAINING_TYPES], valueOf(p.state, form, 'type', 'Standard'))}</select>` })}
${field({ form, name: 'ratings', label: 'Trains for', state: p.state, hint: 'Rating codes and facility endorsements, separated by commas: S2, T1 EKCH TWR', control: input('ratings') })}
${field({ form, name: 'status', label: 'Starts as', state: p.state, control: (id, aria) => html`<select id="${id}" name="status" ${aria}>${options(STATUSES, valueOf(p.state, form, 'status', '0'))}</select>` })}
<div class="actions"><button type="submit">Create</button></div>
</form></section>`}`;
  return staffPage(p, 'Trainings', main, p.notice);
}
