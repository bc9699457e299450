// The report's parts of the staff training page (contract §20): the report form's fields (a picker
// of the area's positions, "Start from template" links that open the form filled), each report's
// Edit, Publish and Delete for whoever may use them, the edit page, and the timeline's words.
import type { ReportDesk } from '../reports.service.js';
import type { Report } from '../trainings.schema.js';
import { type Html, html } from '../../../core/web/html.js';
import { markdownHtml } from '../../../core/web/markdown.js';
import { field, formAction, type FormState, formError, options, staffPage, type StaffFrame, valueOf } from '../../roles/index.js';

export const REPORT_FIELDS = ['report_date', 'position', 'content', 'improve', 'draft'] as const;

interface FieldsOptions {
  form: string;
  state: FormState;
  desk: ReportDesk;
  /** What the fields show when the state is not this form's. */
  initial: { report_date: string; position: string; content: string; improve: string };
  /** Where a template's link opens the form (its id is added as `template`). */
  templateHref: string;
}

/** The report form's fields: date, position picker, text (with the area's templates), what to improve. */
export function reportFields(o: FieldsOptions): Html {
  const { form, state, desk, initial } = o;
  const text = (n: 'report_date', type: string) => (id: string, aria: Html) =>
    html`<input type="${type}" id="${id}" name="${n}" value="${valueOf(state, form, n, initial[n])}" ${aria} />`;
  const area = (n: 'content' | 'improve') => (id: string, aria: Html) =>
    html`<textarea id="${id}" name="${n}" rows="6" ${aria}>${valueOf(state, form, n, initial[n])}</textarea>`;
  const chosen = valueOf(state, form, 'position', initial.position);
  // A report may keep a position of another area it was written with.
  const callsigns = [...new Set([...desk.positions, ...(chosen && !desk.positions.includes(chosen) ? [chosen] : [])])];
  const picker = (id: string, aria: Html) =>
    html`<select id="${id}" name="position" ${aria}>
      ${options([{ value: '', text: 'No position' }, ...callsigns], chosen)}
    </select>`;
  const join = o.templateHref.includes('?') ? '&' : '?';
  // prettier-ignore
  const templates = desk.templates.length === 0 ? '' : html`<p class="hint">Start from template: ${desk.templates.map((t, i) => html`${i > 0 ? ', ' : ''}<a href="${`${o.templateHref}${join}template=${t.id}#${form}-content`}">${t.name}</a>`)}</p>`;
  return html`${field({ form, name: 'report_date', label: 'Session date', state, control: text('report_date', 'date') })}
  ${field({ form, name: 'position', label: 'Position', state, control: picker })} ${templates}
  ${field({ form, name: 'content', label: 'Report', state, hint: 'Markdown, up to 20,000 characters', control: area('content') })}
  ${field({ form, name: 'improve', label: 'To improve', state, hint: 'Markdown', control: area('improve') })}`;
}

/** A report as the staff page lists it, with its files and the actions the viewer may take. */
export function reportItem(trainingId: number, r: Report, author: string, desk: ReportDesk, csrf: Html, files: Html | '' = ''): Html {
  const base = `/staff/trainings/${trainingId}/reports/${r.id}`;
  const label = `report of ${r.report_date}`;
  // prettier-ignore
  const actions = !desk.changeable.has(r.id) ? '' : html`<div class="actions report-actions">
<a href="${base}/edit" aria-label="${`Edit ${label}`}">Edit</a>
${r.draft ? html`<form method="post" action="${base}/publish" class="inline">${csrf}<button type="submit" aria-label="${`Publish ${label}`}">Publish</button></form>` : ''}
<form method="post" action="${base}/delete" class="inline">${csrf}<button type="submit" class="secondary" aria-label="${`Delete ${label}`}">Delete</button></form></div>`;
  // prettier-ignore
  return html`<li id="report-${r.id}"><h3>${r.report_date}${r.position ? ` — ${r.position}` : ''}${r.draft ? html` <span class="flag">Draft</span>` : ''}</h3><p class="hint">by ${author}</p>${markdownHtml(r.content)}${r.improve ? html`<p><strong>To improve:</strong></p>${markdownHtml(r.improve)}` : ''}${files}${actions}</li>`;
}

export interface EditReportPage extends StaffFrame {
  trainingId: number;
  student: string;
  report: Report;
  desk: ReportDesk;
  state: FormState;
}

/** GET /staff/trainings/{id}/reports/{rid}/edit: the report's form, filled with what is stored (or the template picked). */
export function editReportPage(p: EditReportPage): Buffer {
  const r = p.report;
  const url = `/staff/trainings/${p.trainingId}/reports/${r.id}`;
  const initial = { report_date: r.report_date, position: r.position ?? '', content: r.content, improve: r.improve ?? '' };
  const draftTicked = valueOf(p.state, 'edit', 'draft', r.draft ? 'on' : '') !== '';
  // prettier-ignore
  const main = html`<p><a href="/staff/trainings/${p.trainingId}">Back to the training of ${p.student}</a></p>
<form method="post" action="${formAction(url, 'edit')}" class="staff-form" novalidate>${p.csrf}
${formError(p.state, 'edit', REPORT_FIELDS)}
${reportFields({ form: 'edit', state: p.state, desk: p.desk, initial, templateHref: `${url}/edit` })}
${r.draft ? html`<label class="check"><input type="checkbox" name="draft" value="on" ${draftTicked ? html`checked` : ''} /> Draft (hidden from the student; untick to publish)</label>` : html`<p class="hint">Published: the student sees the change; it cannot become a draft again.</p>`}
<div class="actions"><button type="submit">Save report</button> <a href="/staff/trainings/${p.trainingId}">Cancel</a></div></form>`;
  return staffPage(p, `Edit the report of ${r.report_date}`, main);
}

/** A report's timeline entry in words ("report of 2026-11-20 removed"), or null for other entries. */
export function reportTimelineWords(action: string, detail: Record<string, unknown>): string | null {
  const of = `report of ${String(detail.report_date)}`;
  switch (action) {
    case 'report_edited':
      return `${of} edited`;
    case 'report_published':
      return `${of} published`;
    case 'report_deleted':
      return `${detail.draft === true ? 'draft ' : ''}${of} removed`;
    default:
      return null;
  }
}
