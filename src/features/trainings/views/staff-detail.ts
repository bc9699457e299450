// GET /staff/trainings/{id} (contract §18): one training with its forms — status (a reason for
// closing), type and pause, mentors, a report, an examination — and its reports (drafts marked),
// examinations and the timeline of every change.
import { EXAMINATION_RESULTS, TRAINING_TYPES } from '../domain.js';
import { trainingStatusDescription } from '../../members/domain/training-status.js';
import type { TrainingView } from '../desk.service.js';
import { staffFiles, type StaffFiles } from './attachments.js';
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
  today: string;
  state: FormState;
  notice: string | null;
  /** The session's CSRF token, for the upload forms' URLs. */
  csrfToken: string;
}

/** What the viewer may move the training to: staff any open status or closing; a mentor 1–3. */
const targets = (manages: boolean) =>
  (manages ? [0, 1, 2, 3, -1, -2] : [1, 2, 3]).map((s) => ({ value: String(s), text: `${trainingStatusDescription(s)} (${s})` }));

/** A timeline entry's details in words: "from 0; to 2; ratings S2". */
const detailText = (detail: Record<string, unknown>): string =>
  Object.entries(detail)
    .map(([k, v]) => ` ${k.replace(/_/g, ' ')} ${Array.isArray(v) ? v.join(', ') || 'none' : String(v)}`)
    .join(';');

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
  const name = (cid: number | null) => (cid === null ? 'an API key or the CLI' : `${view.names.get(cid) ?? cid} (${cid})`);
  const open = t.status >= 0;
  const text =
    (form: string, n: string, type = 'text', fallback = '') =>
    (id: string, aria: Html) =>
      html`<input type="${type}" id="${id}" name="${n}" value="${valueOf(state, form, n, fallback)}" ${aria} />`;
  const area = (form: string, n: string) => (id: string, aria: Html) =>
    html`<textarea id="${id}" name="${n}" rows="5" ${aria}>${valueOf(state, form, n)}</textarea>`;
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

  // prettier-ignore
  const forms = !open ? html`<p class="notice">This training is closed${t.closed_reason ? `: ${t.closed_reason}` : ''}; it cannot be changed.</p>` : html`
<section aria-labelledby="status-title"><h2 id="status-title">Status</h2>
<form method="post" action="${formAction(`/staff/trainings/${t.id}/status`, 'status')}" class="staff-form" novalidate>${p.csrf}
${formError(state, 'status', ['status', 'closed_reason'])}
${field({ form: 'status', name: 'status', label: 'New status', state, control: select('status', 'status', targets(view.manages), String(t.status)) })}
${view.manages ? field({ form: 'status', name: 'closed_reason', label: 'Reason (closing by staff)', state, hint: '1 to 65 characters; needed for Closed by staff', control: text('status', 'closed_reason') }) : ''}
<div class="actions"><button type="submit">Change status</button></div></form></section>
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
${formError(state, 'report', ['report_date', 'position', 'content', 'improve'])}
${field({ form: 'report', name: 'report_date', label: 'Session date', state, control: text('report', 'report_date', 'date', p.today) })}
${field({ form: 'report', name: 'position', label: 'Position (callsign)', state, control: text('report', 'position') })}
${field({ form: 'report', name: 'content', label: 'Report', state, hint: 'Markdown, up to 20,000 characters', control: area('report', 'content') })}
${field({ form: 'report', name: 'improve', label: 'To improve', state, control: area('report', 'improve') })}
${checkbox('draft', 'Draft (hidden from the student)', valueOf(state, 'report', 'draft') === 'on')}
<div class="actions"><button type="submit">Save report</button></div></form></section>
<section aria-labelledby="exam-title"><h2 id="exam-title">Record an examination</h2>
<form method="post" action="${formAction(`/staff/trainings/${t.id}/examinations`, 'exam')}" class="staff-form" novalidate>${p.csrf}
${formError(state, 'exam', ['examination_date', 'position', 'examiner_id', 'result'])}
${field({ form: 'exam', name: 'examination_date', label: 'Date', state, control: text('exam', 'examination_date', 'date', p.today) })}
${field({ form: 'exam', name: 'position', label: 'Position (callsign)', state, control: text('exam', 'position') })}
${field({ form: 'exam', name: 'examiner_id', label: 'Examiner (CID)', state, hint: 'Holds an examiner endorsement for the area', control: text('exam', 'examiner_id') })}
${field({ form: 'exam', name: 'result', label: 'Result', state, control: select('exam', 'result', [...EXAMINATION_RESULTS], 'PASSED') })}
<div class="actions"><button type="submit">Record</button></div></form></section>`;

  // prettier-ignore
  const main = html`<dl class="facts">
<dt>Student</dt><dd><a href="/staff/users/${t.user_id}">${name(t.user_id)}</a></dd>
<dt>Status</dt><dd>${t.status_description}${t.paused ? ' (paused)' : ''}</dd>
<dt>Area</dt><dd>${t.area}</dd><dt>For</dt><dd>${t.ratings.join(', ')}</dd><dt>Type</dt><dd>${t.type}</dd>
<dt>Applied</dt><dd>${isoText(t.created_at)}</dd>${t.started_at ? html`<dt>Started</dt><dd>${isoText(t.started_at)}</dd>` : ''}
<dt>Mentors</dt><dd>${t.mentors.length === 0 ? 'none' : t.mentors.map(name).join(', ')}</dd>
${t.motivation ? html`<dt>Motivation</dt><dd class="report-text">${t.motivation}</dd>` : ''}
</dl>
${forms}
<section aria-labelledby="reports-title"><h2 id="reports-title">Reports</h2>
${t.reports.length === 0 ? empty('No reports yet.') : html`<ul class="reports">${t.reports.map((r) => html`<li><h3>${r.report_date}${r.position ? ` — ${r.position}` : ''}${r.draft ? html` <span class="flag">Draft</span>` : ''}</h3><p class="hint">by ${name(r.author_id)}</p><div class="report-text">${r.content}</div>${r.improve ? html`<p><strong>To improve:</strong></p><div class="report-text">${r.improve}</div>` : ''}${staffFiles(files, t.id, 'report', r.id, r.attachments)}</li>`)}</ul>`}
</section>
<section aria-labelledby="exams-title"><h2 id="exams-title">Examinations</h2>
${t.examinations.length === 0 ? empty('No examinations yet.') : html`<ul class="exams">${t.examinations.map((x) => html`<li>${x.examination_date}, ${x.position}, examiner ${name(x.examiner_id)}: <strong>${x.result}</strong>${staffFiles(files, t.id, 'examination', x.id, x.attachments)}</li>`)}</ul>`}
</section>
<section aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2>
${t.timeline.length === 0 ? empty('No changes recorded.') : html`<ol class="timeline">${t.timeline.map((e) => html`<li><span class="time">${isoText(e.at)}</span> ${e.action}${detailText(e.detail)} — ${e.actor_name ?? e.actor}</li>`)}</ol>`}
</section>`;
  return staffPage(p, `Training of ${view.names.get(t.user_id) ?? t.user_id}`, main, p.notice);
}
