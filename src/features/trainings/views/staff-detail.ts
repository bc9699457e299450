// GET /staff/trainings/{id} (contract §18, §20): the training's summary (with the application's
// answers) beside its forms — status (a reason for closing), type and pause, mentors, a report, an
// examination, a one-time link, each shown only to whoever may use it — two columns on a desktop,
// stacked on a phone; then its reports (drafts marked) and examinations, newest first, and the
// timeline of every change.
import { EXPERIENCE, TRAINING_TYPES } from '../domain.js';
import { examinationParts } from './exam-forms.js';
import { trainingStatusDescription } from '../../members/domain/training-status.js';
import type { TrainingView } from '../desk.service.js';
import { staffFiles, type StaffFiles } from './attachments.js';
import { personName } from '../../members/domain/names.js';
import { timelineText } from '../timeline.domain.js';
import { ratingsOf, staffCompletionNote } from './student-training.js';
import type { ReportDesk } from '../reports.service.js';
import { REPORT_FIELDS, reportFields, reportItem } from './report-form.js';
import { type Html, html } from '../../../core/web/html.js';
import {
  empty,
  errorsOf,
  field,
  formAction,
  type FormState,
  formError,
  isoText,
  options,
  staffPage,
  type StaffFrame,
  valueOf,
} from '../../roles/index.js';

export interface TrainingPage extends StaffFrame {
  view: TrainingView;
  /** The report forms' pickers and templates, and which reports the viewer may change (§20). */
  reports: ReportDesk;
  today: string;
  state: FormState;
  notice: string | null;
  /** The session's CSRF token, for the upload forms' URLs. */
  csrfToken: string;
  /** The training's tasks and the request form (the tasks feature's section, §21). */
  tasks: Html;
  /** A completed rating training's offer of the rating-upgrade task. */
  offer: Html | '';
}

/** What the viewer may move the training to: staff any open status or closing; a mentor 1–3. */
const targets = (manages: boolean) =>
  (manages ? [0, 1, 2, 3, -1, -2] : [1, 2, 3]).map((s) => ({ value: String(s), text: `${trainingStatusDescription(s)} (${s})` }));

export function trainingPage(p: TrainingPage): Buffer {
  const { view, state } = p;
  const t = view.detail;
  const files: StaffFiles = {
    csrfToken: p.csrfToken,
    csrf: p.csrf,
    state,
    mayUpload: (kind, id) => kind === 'report' || view.files.examinations.has(id),
    removable: view.files.removable,
  };
  const name = (cid: number | null) => (cid === null ? 'an API key or the CLI' : personName(view.names, cid));
  const open = t.status >= 0;
  const text =
    (form: string, n: string, type = 'text', fallback = '') =>
    (id: string, aria: Html) =>
      html`<input type="${type}" id="${id}" name="${n}" value="${valueOf(state, form, n, fallback)}" ${aria} />`;
  const select = (form: string, n: string, values: Parameters<typeof options>[0], fallback: string) => (id: string, aria: Html) =>
    html`<select id="${id}" name="${n}" ${aria}>
      ${options(values, valueOf(state, form, n, fallback))}
    </select>`;
  const checkbox = (n: string, label: string, on: boolean, value = 'on') =>
    html`<label class="check"><input type="checkbox" name="${n}" value="${value}" ${on ? html`checked` : ''} /> ${label}</label>`;
  const mentorErrors = errorsOf(state, 'change').mentors;
  // A refused change comes back with its boxes as sent; otherwise they show what is stored.
  const mentorsTicked = valueOf(state, 'change', 'mentors', t.mentors.join(',')).split(',');
  const pausedTicked = valueOf(state, 'change', 'paused', t.paused ? 'on' : '') !== '';
  const exams = examinationParts({
    view,
    csrf: p.csrf,
    state,
    today: p.today,
    files: (x) => staffFiles(files, t.id, 'examination', x.id, x.attachments),
  });

  const closed = `This training is closed${t.closed_reason ? `: ${t.closed_reason}` : ''}; it cannot be changed.`;
  // A form sent to a training closed meanwhile has no form to come back to: its refusal says why here.
  const messages = Object.values(state.errors).flat().join(' ');
  const refused =
    state.form === '' ? '' : html`<p class="error" role="alert" id="${state.form}-problem">Nothing was changed: ${messages}</p>`;
  // prettier-ignore
  const forms = !open ? html`${refused}<p class="notice">${closed}</p>${staffCompletionNote(t)}${p.offer}` : html`
${view.mayStatus ? html`<section aria-labelledby="status-title"><h2 id="status-title">Status</h2>
<form method="post" action="${formAction(`/staff/trainings/${t.id}/status`, 'status')}" class="staff-form" novalidate>${p.csrf}
${formError(state, 'status', ['status', 'closed_reason'])}
${field({ form: 'status', name: 'status', label: 'New status', state, hint: ratingsOf(t).length > 0 ? 'Completing does not change the rating: the network does, once asked.' : undefined, control: select('status', 'status', targets(view.manages), String(t.status)) })}
${view.manages ? field({ form: 'status', name: 'closed_reason', label: 'Reason (closing by staff)', state, hint: '1 to 65 characters; needed for Closed by staff', control: text('status', 'closed_reason') }) : ''}
<div class="actions"><button type="submit">Change status</button></div></form></section>` : ''}
${view.manages ? html`<section aria-labelledby="type-title"><h2 id="type-title">Type, pause and mentors</h2>
<form method="post" action="${formAction(`/staff/trainings/${t.id}`, 'change')}" class="staff-form" novalidate>${p.csrf}
${formError(state, 'change', ['type', 'mentors'])}
${field({ form: 'change', name: 'type', label: 'Type', state, control: select('change', 'type', [...TRAINING_TYPES], t.type) })}
<fieldset class="field"${mentorErrors ? html` aria-describedby="change-mentors-error"` : ''}><legend>Mentors</legend>${view.mentorChoices.length === 0 ? empty('Nobody holds Mentor or a higher role in this area.') : view.mentorChoices.map((cid) => checkbox('mentors', name(cid), mentorsTicked.includes(String(cid)), String(cid)))}
${mentorErrors ? html`<p class="error" id="change-mentors-error">${mentorErrors.join(' ')}</p>` : ''}</fieldset>
${checkbox('paused', 'Paused (the time does not count as waiting)', pausedTicked)}
<div class="actions"><button type="submit">Save</button></div></form></section>` : ''}
<section aria-labelledby="report-title"><h2 id="report-title">Write a report</h2>
<form method="post" action="${formAction(`/staff/trainings/${t.id}/reports`, 'report')}" class="staff-form" novalidate>${p.csrf}
${formError(state, 'report', REPORT_FIELDS)}
${reportFields({ form: 'report', state, desk: p.reports, initial: { report_date: p.today, position: '', content: '', improve: '' }, templateHref: `/staff/trainings/${t.id}` })}
${checkbox('draft', 'Draft (hidden from the student)', valueOf(state, 'report', 'draft') === 'on')}
<div class="actions"><button type="submit">Save report</button></div></form></section>
${exams.form}
${view.manages ? html`<section aria-labelledby="link-title"><h2 id="link-title">One-time link</h2>
<form method="post" action="${formAction(`/staff/trainings/${t.id}/links`, 'link')}" class="staff-form" novalidate>${p.csrf}
${formError(state, 'link', [])}<p class="hint">Lets someone who is not this training's mentor — any member holding a staff role — write one report of it. It works once, for seven days; the address is shown only when it is made.</p><input type="hidden" name="kind" value="report" />
<div class="actions"><button type="submit">Make a link for one report</button></div></form></section>` : ''}`;

  // prettier-ignore
  const main = html`<div class="training-desk"><section aria-labelledby="summary-title" class="training-summary"><h2 id="summary-title">Summary</h2><dl class="facts">
<dt>Student</dt><dd><a href="/staff/users/${t.user_id}">${name(t.user_id)}</a></dd>
<dt>Status</dt><dd>${t.status_description}${t.paused ? ' (paused)' : ''}</dd>
<dt>Area</dt><dd>${t.area}</dd><dt>For</dt><dd>${t.ratings.join(', ')}</dd><dt>Type</dt><dd>${t.type}</dd>
<dt>Applied</dt><dd>${isoText(t.created_at)}</dd>${t.started_at ? html`<dt>Started</dt><dd>${isoText(t.started_at)}</dd>` : ''}
<dt>Mentors</dt><dd>${t.mentors.length === 0 ? 'none' : t.mentors.map(name).join(', ')}</dd>
${t.motivation ? html`<dt>Motivation</dt><dd class="report-text">${t.motivation}</dd>` : ''}
${t.experience !== null ? html`<dt>Experience</dt><dd>${EXPERIENCE[t.experience] ?? String(t.experience)}</dd>` : ''}
${t.experience !== null || t.english_only ? html`<dt>English only</dt><dd>${t.english_only ? 'Yes: trained in English only' : 'No'}</dd>` : ''}
</dl></section>
<div class="training-actions">${forms}</div></div>
<section aria-labelledby="reports-title"><h2 id="reports-title">Reports</h2>
${t.reports.length === 0 ? empty('No reports yet.') : html`<ul class="reports">${[...t.reports].reverse().map((r) => reportItem(t.id, r, name(r.author_id), p.reports, p.csrf, staffFiles(files, t.id, 'report', r.id, r.attachments)))}</ul>`}
</section>
${exams.list}
${p.tasks}
<section aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2>
${t.timeline.length === 0 ? empty('No changes recorded.') : html`<ol class="timeline">${t.timeline.map((e) => html`<li><span class="time">${isoText(e.at)}</span> ${timelineText(e, view.names)}</li>`)}</ol>`}
</section>`;
  return staffPage(p, `Training of ${view.names.get(t.user_id) ?? t.user_id}`, main, p.notice);
}
