// The pages of one-time links (contract §20): the link made (shown once, to the Moderator or
// Administrator who made it), and the holder's page — the training's summary, its published reports
// and the one form the link is for.
import type { FieldErrors } from '../../../core/domain/errors.js';
import { html } from '../../../core/web/html.js';
import { markdownHtml } from '../../../core/web/markdown.js';
import { described, fieldError, frame, type PageFrame } from '../../bookings/index.js';
import type { LinkView } from '../links.service.js';
import { EXAMINATION_RESULTS } from '../domain.js';
import { andList, whenText } from '../examinations.domain.js';
import { ATTACHMENT_BYTES_MAX, ATTACHMENTS_MAX, sizeText } from '../attachments.domain.js';

export interface LinkReportValues {
  report_date: string;
  position: string;
  content: string;
  improve: string;
  /** A grading link's result. */
  result: string;
}

const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
const named = (names: Map<number, string>, cid: number): string => `${names.get(cid) ?? 'Unknown'} (${cid})`;

/** The holder's page of a report link: what the training is, what was reported, and the report form. */
export function linkReportPage(f: PageFrame & { action: string; view: LinkView; values: LinkReportValues; errors: FieldErrors }): Buffer {
  const { view, errors } = f;
  const t = view.training;
  // prettier-ignore
  const main = html`<p>This one-time link lets you write one report of this training, until ${dayText(view.expiresAt)}. Saving the report uses it up.</p>
${summary(view)}
<section aria-labelledby="write-title"><h2 id="write-title">Your report</h2>
${problem(errors, ['report_date', 'position', 'content', 'improve'], 'report')}
<form method="post" action="${f.action}" class="training-form" novalidate>
${reportForm(f)}`;
  return frame(f, `Report for the training of ${view.names.get(t.user_id) ?? t.user_id}`, main);
}

/** "The report was not saved: …", with the messages of fields the form has no place for. */
function problem(errors: FieldErrors, fields: readonly string[], what: 'report' | 'result') {
  if (Object.keys(errors).length === 0) return '';
  const other = Object.entries(errors).filter(([field]) => !fields.includes(field));
  // prettier-ignore
  return html`<p class="error" role="alert" id="${what}-problem">The ${what} was not saved${other.length > 0 ? html`: ${other.map(([, m]) => m.join(' ')).join(' ')}` : ': see the messages below.'}</p>`;
}

/** The holder's page of a grading link: the training, the examination, and its result. */
export function linkExamPage(
  f: PageFrame & { action: string; view: LinkView; values: LinkReportValues; errors: FieldErrors; upload: LinkUpload },
): Buffer {
  const { view, values, errors } = f;
  const x = view.examination!;
  const results = EXAMINATION_RESULTS.map((r) => ({ value: r, text: `${r.slice(0, 1)}${r.slice(1).toLowerCase()}` }));
  // prettier-ignore
  const main = html`<p>This one-time link lets you grade one examination of this training, until ${dayText(view.expiresAt)}. Saving the result uses it up.</p>
<section aria-labelledby="exam-title"><h2 id="exam-title">The examination</h2>
<dl class="facts"><dt>When</dt><dd>${whenText(x.examination_date, x.start)}</dd><dt>Position</dt><dd>${x.position}</dd>
<dt>${x.examiners.length > 1 ? 'Examiners' : 'Examiner'}</dt><dd>${andList(x.examiners.map((c) => named(view.names, c)))}</dd></dl></section>
${filesSection(view, f.upload)}
<section aria-labelledby="grade-title"><h2 id="grade-title">Grading</h2>
${problem(errors, ['result'], 'result')}
<form method="post" action="${f.action}" class="training-form" novalidate>
${f.csrf}
<div class="field"><label for="result">Result</label>
<select id="result" name="result" required${described('result', errors)}><option value="">Pick a result</option>${results.map((r) => html`<option value="${r.value}"${r.value === values.result ? html` selected` : ''}>${r.text}</option>`)}</select>${fieldError('result', errors)}</div>
<div class="actions"><button type="submit">Save the result</button></div>
</form></section>
${summary(view)}`;
  return frame(f, `Examination of ${view.names.get(view.training.user_id) ?? view.training.user_id}`, main);
}

/** A grading link's upload form: where it posts (its CSRF token in the URL), its messages, a notice. */
export interface LinkUpload {
  action: string;
  errors: FieldErrors;
  notice: string | null;
}

/** The examination's files and a form to add one (the examination form, say), before the result: adding does not use the link up, grading does. */
function filesSection(view: LinkView, u: LinkUpload) {
  const room = view.files.length < ATTACHMENTS_MAX;
  // prettier-ignore
  return html`<section aria-labelledby="files-title"><h2 id="files-title">Files of the examination</h2>
${u.notice === null ? '' : html`<p class="notice" role="status">${u.notice}</p>`}
${view.files.length === 0 ? html`<p class="empty">No files yet.</p>` : html`<ul class="attachments">${view.files.map((a) => html`<li>${a.name} <span class="hint">(${sizeText(a.size)})</span>${a.hidden ? html` <span class="flag">Staff only</span>` : ''}</li>`)}</ul>`}
${!room ? html`${fieldError('file', u.errors)}<p class="hint">${ATTACHMENTS_MAX} files: the area's staff can remove one.</p>` : html`<form method="post" enctype="multipart/form-data" action="${u.action}" class="training-form" novalidate>
<div class="field"><label for="file">Add a file</label><p class="hint" id="file-hint">The examination form, for example: PDF, PNG, JPEG or plain text, up to ${ATTACHMENT_BYTES_MAX / 1024 / 1024} MB, ${ATTACHMENTS_MAX} files at most. Adding a file does not use the link up.</p>
<input type="file" id="file" name="file" accept=".pdf,.png,.jpg,.jpeg,.txt,application/pdf,image/png,image/jpeg,text/plain" required${described('file', u.errors, 'file-hint')} />${fieldError('file', u.errors)}</div>
<label class="check"><input type="checkbox" name="hidden" value="on" /> Staff only (hidden from the student)</label>
<div class="actions"><button type="submit" class="secondary">Upload</button></div>
</form>`}
</section>`;
}

/** The training's summary and its published reports, as every link's holder sees them. */
function summary(view: LinkView) {
  const t = view.training;
  // prettier-ignore
  return html`<section aria-labelledby="training-title"><h2 id="training-title">The training</h2><dl class="facts">
<dt>Student</dt><dd>${named(view.names, t.user_id)}</dd>
<dt>Area</dt><dd>${t.area}</dd><dt>For</dt><dd>${t.ratings.join(', ')}</dd><dt>Status</dt><dd>${t.status_description}</dd>
<dt>Mentors</dt><dd>${t.mentors.length === 0 ? 'none' : t.mentors.map((m) => named(view.names, m)).join(', ')}</dd>
</dl></section>
<section aria-labelledby="reports-title"><h2 id="reports-title">Published reports</h2>
${t.reports.length === 0 ? html`<p class="empty">No reports yet.</p>` : html`<ul class="reports">${t.reports.map((r) => html`<li><h3>${r.report_date}${r.position ? ` — ${r.position}` : ''}</h3>${r.author_id ? html`<p class="hint">by ${named(view.names, r.author_id)}</p>` : ''}${markdownHtml(r.content)}${r.improve ? html`<p><strong>To improve:</strong></p>${markdownHtml(r.improve)}` : ''}</li>`)}</ul>`}
</section>`;
}

function reportForm(f: PageFrame & { action: string; view: LinkView; values: LinkReportValues; errors: FieldErrors }) {
  const { view, values, errors } = f;
  // prettier-ignore
  return html`${f.csrf}
<div class="field"><label for="report_date">Date of the session</label>
<input type="date" id="report_date" name="report_date" value="${values.report_date}" required${described('report_date', errors)} />${fieldError('report_date', errors)}</div>
<div class="field"><label for="position">Position</label>
<select id="position" name="position"${described('position', errors)}><option value="">No position</option>${view.positions.map((c) => html`<option${c === values.position ? html` selected` : ''}>${c}</option>`)}</select>${fieldError('position', errors)}</div>
<div class="field"><label for="content">Report</label><p class="hint" id="content-hint">Markdown, up to 20,000 characters</p>
<textarea id="content" name="content" rows="8" required${described('content', errors, 'content-hint')}>${values.content}</textarea>${fieldError('content', errors)}</div>
<div class="field"><label for="improve">To improve (optional)</label>
<textarea id="improve" name="improve" rows="4"${described('improve', errors)}>${values.improve}</textarea>${fieldError('improve', errors)}</div>
<div class="actions"><button type="submit">Save the report</button></div>
</form></section>`;
}

/** The link just made: its address, shown this once. */
export function linkCreatedPage(
  f: PageFrame & { url: string; expiresAt: number; trainingId: number; kind: 'report' | 'examination' },
): Buffer {
  // prettier-ignore
  const main = html`<p>Send this address to the person who will ${f.kind === 'report' ? 'write the report' : 'grade the examination'}. It works once, for a signed-in member${f.kind === 'report' ? ' holding a staff role' : ' who is an examiner of it'}, until ${dayText(f.expiresAt)}.</p>
<p class="notice">It is shown only now: Sector keeps no copy it could show again.</p>
<div class="field"><label for="link-url">One-time link</label>
<input type="text" id="link-url" class="feed-url" readonly value="${f.url}" /></div>
<p><a href="/staff/trainings/${f.trainingId}">Back to the training</a></p>`;
  return frame(f, 'One-time link made', main);
}
