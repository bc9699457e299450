// The person page's theory exams from the division's hub (contract §22): results (passed or failed,
// until when) and assignments, by the exams' names; a short line when the hub could not be reached.
// Without a hub configured the section is not there.
import type { MemberHubExams } from '../../division-api/index.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty } from '../../roles/index.js';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function result(r: Extract<MemberHubExams, { ok: true }>['results'][number]): Html {
  const until = r.expiry === null || !r.passed ? '' : r.expired ? `, expired ${day(r.expiry)}` : `, valid until ${day(r.expiry)}`;
  return html`<li class="card">
    <p><strong>${r.exam}</strong>: ${r.passed ? 'passed' : 'failed'}${until}</p>
  </li>`;
}

export function hubExamsSection(hub: MemberHubExams | null): Html | '' {
  if (hub === null) return '';
  // prettier-ignore
  const body = !hub.ok
    ? html`<p class="hint" id="hub-exams-unreachable">The division's hub (${hub.host}) could not be reached, so its exam results are not shown; reload to try again.</p>`
    : html`<h3 id="hub-results-title">Results</h3>
${hub.results.length === 0 ? empty('No exam results on the hub.') : html`<ul class="cards" aria-labelledby="hub-results-title">${hub.results.map(result)}</ul>`}
<h3 id="hub-assignments-title">Assigned exams</h3>
${hub.assignments.length === 0 ? empty('No exams assigned on the hub.') : html`<ul class="cards" aria-labelledby="hub-assignments-title">${hub.assignments.map((a) => html`<li class="card"><p><strong>${a.exam}</strong>${a.at === null ? '' : `, assigned ${day(a.at)}`}</p></li>`)}</ul>`}`;
  return html`<section aria-labelledby="hub-exams-title">
    <h2 id="hub-exams-title">Theory exams on the division's hub</h2>
    ${body}
  </section>`;
}
