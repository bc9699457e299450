// The examinations of the staff training page (contract §20): the form planning one (examiners and
// positions picked by name, the result optional), and the list with each examination's "Grade",
// "Move" and "Cancel" forms (a graded one's "Correct the result"), each shown only to whoever may
// use it: the area's Administrators and Moderators, or an examiner of that examination.
import { EXAMINATION_RESULTS } from '../domain.js';
import { andList, whenText } from '../examinations.domain.js';
import type { TrainingView } from '../desk.service.js';
import type { Examination, TrainingDetail } from '../trainings.schema.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty, errorsOf, field, formAction, type FormState, formError, options, valueOf } from '../../roles/index.js';

export interface ExamParts {
  view: TrainingView;
  csrf: Html;
  state: FormState;
  today: string;
  /** Each examination's files, with the upload form and remove buttons the viewer may use. */
  files?: (x: TrainingDetail['examinations'][number]) => Html | '';
}

const RESULTS = EXAMINATION_RESULTS.map((r) => ({ value: r, text: `${r.slice(0, 1)}${r.slice(1).toLowerCase()}` }));

export function examinationParts(p: ExamParts): { form: Html | ''; list: Html } {
  const { view, state } = p;
  const t = view.detail;
  const name = (cid: number) => `${view.names.get(cid) ?? 'CID'} (${cid})`;
  const mayPlan = view.manages || view.examinerChoices.some((e) => e.cid === view.viewer);
  const mayAct = (x: Examination) => view.manages || x.examiners.includes(view.viewer);

  const input = (form: string, n: string, type: string, fallback: string) => (id: string, aria: Html) =>
    html`<input type="${type}" id="${id}" name="${n}" value="${valueOf(state, form, n, fallback)}" ${aria} />`;
  const select =
    (form: string, n: string, values: Parameters<typeof options>[0], fallback: string, blank?: string) => (id: string, aria: Html) =>
      html`<select id="${id}" name="${n}" ${aria}>
        ${blank === undefined ? '' : html`<option value="">${blank}</option>`}${options(values, valueOf(state, form, n, fallback))}
      </select>`;
  const positions = view.positionChoices.map((o) => ({ value: o.callsign, text: `${o.callsign} — ${o.name} (${o.rating})` }));
  const examiners = (form: string, chosen: readonly number[]) => {
    const errors = errorsOf(state, form).examiners ?? errorsOf(state, form).examiner_id;
    const ticked = valueOf(state, form, 'examiners', chosen.join(',')).split(',');
    const choices = [...new Set([...view.examinerChoices.map((e) => e.cid), ...chosen])];
    const rating = new Map(view.examinerChoices.map((e) => [e.cid, e.rating]));
    return html`<fieldset class="field" ${errors ? html` aria-describedby="${form}-examiners-error"` : ''}>
      <legend>Examiners (one or two)</legend>
      ${
        choices.length === 0
          ? empty(`Nobody holds an examiner endorsement for ${t.area}.`)
          : choices.map(
              (cid) =>
                html`<label class="check"
                  ><input type="checkbox" name="examiners" value="${cid}" ${ticked.includes(String(cid)) ? html`checked` : ''} />
                  ${name(cid)}${rating.has(cid) ? `, examines up to ${rating.get(cid)!}` : ''}</label
                >`,
            )
      }
      ${errors ? html`<p class="error" id="${form}-examiners-error">${errors.join(' ')}</p>` : ''}
    </fieldset>`;
  };
  const when = (form: string, x?: Examination) =>
    html` ${field({ form, name: 'examination_date', label: 'Date', state, control: input(form, 'examination_date', 'date', x?.examination_date ?? p.today) })}
    ${field({ form, name: 'start', label: 'Start (UTC)', state, hint: 'HH:MM, optional', control: input(form, 'start', 'time', x?.start ?? '') })}
    ${field({ form, name: 'position', label: 'Position', state, control: select(form, 'position', positions, x?.position ?? '') })}`;

  // prettier-ignore
  const form = !mayPlan || t.status < 0 ? '' : html`<section aria-labelledby="exam-title"><h2 id="exam-title">Plan an examination</h2>
<form method="post" action="${formAction(`/staff/trainings/${t.id}/examinations`, 'exam')}" class="staff-form" novalidate>${p.csrf}
${formError(state, 'exam', ['examination_date', 'start', 'position', 'examiners', 'examiner_id', 'result'])}
${when('exam')}${examiners('exam', [])}
${field({ form: 'exam', name: 'result', label: 'Result', state, hint: 'Leave it for a planned examination; grade it afterwards', control: select('exam', 'result', RESULTS, '', 'Not graded yet (planned)') })}
<div class="actions"><button type="submit">Save examination</button></div></form></section>`;

  const actions = (x: Examination) => {
    const base = `/staff/trainings/${t.id}/examinations/${x.id}`;
    const f = (k: string) => `exam-${x.id}-${k}`;
    // A grading link asked for on a page shown before the examination was graded comes back refused here.
    if (x.result !== null)
      // prettier-ignore
      return view.manages ? html`${formError(state, f('link'), [])}<form method="post" action="${formAction(`${base}/grade`, f('grade'))}" class="staff-form inline" novalidate>${p.csrf}
${formError(state, f('grade'), ['result'])}
${field({ form: f('grade'), name: 'result', label: 'Correct the result', state, control: select(f('grade'), 'result', RESULTS, x.result) })}
<div class="actions"><button type="submit">Correct</button></div></form>` : '';
    if (!mayAct(x)) return '';
    // prettier-ignore
    return html`<form method="post" action="${formAction(`${base}/grade`, f('grade'))}" class="staff-form inline" novalidate>${p.csrf}
${formError(state, f('grade'), ['result'])}
${field({ form: f('grade'), name: 'result', label: 'Result', state, control: select(f('grade'), 'result', RESULTS, '', 'Pick a result') })}
<div class="actions"><button type="submit">Grade</button></div></form>
<details${state.form === f('move') ? html` open` : ''}><summary>Move or change examiners</summary>
<form method="post" action="${formAction(`${base}/move`, f('move'))}" class="staff-form" novalidate>${p.csrf}
${formError(state, f('move'), ['examination_date', 'start', 'position', 'examiners'])}
${when(f('move'), x)}${examiners(f('move'), x.examiners)}
<div class="actions"><button type="submit">Move</button></div></form></details>
<form method="post" action="${formAction(`${base}/cancel`, f('cancel'))}" class="staff-form inline" novalidate>${p.csrf}
${formError(state, f('cancel'), [])}
<div class="actions"><button type="submit">Cancel this examination</button></div></form>
${view.manages ? html`<form method="post" action="${formAction(`/staff/trainings/${t.id}/links`, f('link'))}" class="staff-form inline" novalidate>${p.csrf}
${formError(state, f('link'), [])}<input type="hidden" name="kind" value="examination" /><input type="hidden" name="examination_id" value="${x.id}" />
<p class="hint">An examiner without a staff role grades through a one-time link: it works once, for seven days, for an examiner of this examination.</p>
<div class="actions"><button type="submit">Make a grading link</button></div></form>` : ''}`;
  };

  const exams = [...t.examinations].reverse();
  // prettier-ignore
  const list = html`<section aria-labelledby="exams-title"><h2 id="exams-title">Examinations</h2>
${exams.length === 0 ? empty('No examinations yet.') : html`<ul class="exams">${exams.map((x) => html`<li><p>${whenText(x.examination_date, x.start)}, ${x.position}, ${x.examiners.length > 1 ? 'examiners' : 'examiner'} ${andList(x.examiners.map(name))}: <strong>${x.result ?? 'Planned'}</strong></p>${p.files?.(x) ?? ''}${actions(x)}</li>`)}</ul>`}
</section>`;
  return { form, list };
}
