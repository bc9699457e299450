// A training's tasks on its staff page (contract §21): the list, and "Request…" — a form to ask one
// of the area's Moderators or Administrators (the three most used first). A refused request comes
// back on the request page (GET /staff/trainings/{id}/tasks), which also opens prefilled from a link
// (the rating-upgrade task a completed rating training offers).
import { type Html, html } from '../../../core/web/html.js';
import { isRatingCode, ratingValue } from '../../members/domain/ratings.js';
import { empty, field, formAction, formError, type FormState, options, staffPage, type StaffFrame, valueOf } from '../../roles/index.js';
import { TASK_TYPE_TEXT, TASK_TYPES } from '../domain.js';
import type { TrainingTasks } from '../task-pages.service.js';
import { taskItem } from './task-items.js';

const FORM = 'task';
const FIELDS = ['type', 'assignee_id', 'rating', 'message', 'theory_exam_passed'];
const RATINGS = ['S1', 'S2', 'S3', 'C1', 'C3'];

export interface TrainingTasksPart {
  trainingId: number;
  viewer: number;
  tasks: TrainingTasks;
  csrf: Html;
  state: FormState;
}

/** The request form: the fields the API takes, with the viewer's choices of assignee. */
export function requestForm(p: TrainingTasksPart): Html {
  const v = (name: string, fallback = '') => valueOf(p.state, FORM, name, fallback);
  const s = p.state;
  const select =
    (name: string, values: Parameters<typeof options>[0], fallback = '') =>
    (id: string, aria: Html) =>
      html`<select id="${id}" name="${name}" ${aria}>
        ${options(values, v(name, fallback))}
      </select>`;
  const ticked = v('theory_exam_passed') !== '';
  const confirmError = s.form === FORM ? s.errors.theory_exam_passed : undefined;
  // prettier-ignore
  return html`<form method="post" action="${formAction(`/staff/trainings/${p.trainingId}/tasks`, FORM)}" class="staff-form" novalidate>${p.csrf}
${formError(s, FORM, FIELDS)}
${field({ form: FORM, name: 'type', label: 'What to ask for', state: s, control: select('type', TASK_TYPES.map((t) => ({ value: t, text: TASK_TYPE_TEXT[t] }))) })}
${field({ form: FORM, name: 'assignee_id', label: 'Ask', state: s, hint: "The area's Moderators and Administrators; those asked most often first.", control: select('assignee_id', p.tasks.assignees.map((a) => ({ value: String(a.cid), text: `${a.name || 'CID'} (${a.cid})` }))) })}
${field({ form: FORM, name: 'rating', label: 'Rating (upgrade, theory exam)', state: s, control: select('rating', [{ value: '', text: '—' }, ...RATINGS]) })}
${field({ form: FORM, name: 'message', label: 'Message', state: s, hint: 'Up to 1000 characters; needed for a custom request.', control: (id, aria) => html`<textarea id="${id}" name="message" rows="3" maxlength="1000"${aria}>${v('message')}</textarea>` })}
<div class="field"><label class="check"><input type="checkbox" name="theory_exam_passed" value="on"${ticked ? html` checked` : ''}${confirmError ? html` aria-invalid="true" aria-describedby="task-theory_exam_passed-error"` : ''} /> The student has passed the theoretical exam (needed for a solo endorsement)</label>
${confirmError ? html`<p class="error" id="task-theory_exam_passed-error">${confirmError.join(' ')}</p>` : ''}</div>
<div class="actions"><button type="submit">Send the request</button></div></form>`;
}

/** The training page's section: its tasks, and the request form for those who may send one. */
export function trainingTasksSection(p: TrainingTasksPart): Html {
  const c = { viewer: p.viewer, names: p.tasks.names, csrf: p.csrf, state: p.state, linkTraining: false };
  const canAsk = p.tasks.mayCreate && p.tasks.assignees.length > 0;
  // prettier-ignore
  return html`<section aria-labelledby="tasks-title"><h2 id="tasks-title">Tasks</h2>
${p.tasks.tasks.length === 0 ? empty('No tasks about this training.') : html`<ul class="cards">${p.tasks.tasks.map((t) => taskItem(t, c))}</ul>`}
${canAsk ? html`<details${p.state.form === FORM ? html` open` : ''}><summary>Request…</summary>${requestForm(p)}</details>` : ''}
</section>`;
}

/** The request page: the form alone, shown again with its errors or opened prefilled. */
export function requestPage(f: StaffFrame & TrainingTasksPart & { student: string }): Buffer {
  const main = html`<p><a href="/staff/trainings/${f.trainingId}">Back to the training of ${f.student}</a></p>
    ${f.tasks.mayCreate && f.tasks.assignees.length > 0 ? requestForm(f) : empty('You cannot send tasks about this training.')}`;
  return staffPage(f, `Request for ${f.student}`, main);
}

/** Completing a rating training offers the upgrade task, prefilled with the trained rating (§20, §21). */
export function completionOffer(t: { id: number; status: number; ratings: readonly string[] }, mayCreate: boolean): Html | '' {
  const rating = t.ratings.filter(isRatingCode).sort((a, b) => (ratingValue(b) ?? 0) - (ratingValue(a) ?? 0))[0];
  if (t.status !== -1 || rating === undefined || !mayCreate) return '';
  return html`<p class="notice">
    <a href="/staff/trainings/${t.id}/tasks?type=rating_upgrade&amp;rating=${rating}">Request the rating upgrade to ${rating}</a> from a
    Moderator or Administrator of the area.
  </p>`;
}
