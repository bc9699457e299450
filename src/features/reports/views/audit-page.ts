// GET /staff/audit (contract §25): the audit log for division-wide Administrators, filtered by booking,
// actor and time, 100 a page, newest first. Every value is made printable as `npx sector audit` makes
// it (control characters and bidirectional overrides escaped), then HTML-escaped by html`…`.
import { describeChange, type StoredAuditEntry } from '../../audit/index.js';
import { printable } from '../../../core/domain/printable.js';
import { isoMicros } from '../../../core/domain/time.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty, staffPage } from '../../roles/index.js';
import type { ReportsFrame } from './report-pages.js';

export interface AuditQuery {
  booking: string;
  actor: string;
  from: string;
  to: string;
}

export interface AuditPage extends ReportsFrame {
  query: AuditQuery;
  /** Field -> message for a filter that could not be read (the page answers 422 and shows no entries). */
  errors: Record<string, string>;
  entries: StoredAuditEntry[];
  page: number;
  /** Whether an older page exists. */
  more: boolean;
  perPage: number;
}

/** Who, as the CLI's table shows them, a member as "First Last (cid)". */
function actorText(e: StoredAuditEntry): string {
  if (e.actor.startsWith('member:') && e.actor_name) return printable(`${e.actor_name} (${e.actor.slice(7)})`);
  return printable(e.actor_name === null ? e.actor : `${e.actor} (${e.actor_name})`);
}

function filterField(p: AuditPage, name: keyof AuditQuery, label: string, type: string, hint: string): Html {
  const error = p.errors[name];
  const described = [`f-${name}-hint`, ...(error ? [`f-${name}-error`] : [])].join(' ');
  // prettier-ignore
  return html`<div class="field"><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${p.query[name]}" aria-describedby="${described}"${error ? html` aria-invalid="true"` : ''} />
<p class="hint" id="f-${name}-hint">${hint}</p>${error ? html`<p class="error" id="f-${name}-error">${error}</p>` : ''}</div>`;
}

function pageLink(p: AuditPage, page: number, text: string, rel: string): Html {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(p.query) as Array<[string, string]>) if (v !== '') params.set(k, v);
  if (page > 1) params.set('page', String(page));
  const qs = params.toString();
  return html`<a href="/staff/audit${qs === '' ? '' : `?${qs}`}" rel="${rel}">${text}</a>`;
}

export function auditPage(p: AuditPage): Buffer {
  const hasErrors = Object.keys(p.errors).length > 0;
  const first = (p.page - 1) * p.perPage + 1;
  // prettier-ignore
  const main = html`<form method="get" action="/staff/audit" class="filters" role="search" aria-label="Filter the audit log">
${hasErrors ? html`<p class="error" role="alert">The filter could not be read: see the messages below.</p>` : ''}
${filterField(p, 'booking', 'Booking', 'text', 'A booking id: only the changes of that booking.')}
${filterField(p, 'actor', 'Actor', 'text', 'A CID (a member), key:<id>, cli, roster or system.')}
${filterField(p, 'from', 'From (UTC)', 'date', 'Only entries on or after this day, YYYY-MM-DD.')}
${filterField(p, 'to', 'To (UTC)', 'date', 'Only entries on or before this day, YYYY-MM-DD.')}
<button type="submit">Show</button> <a href="/staff/audit">Clear the filter</a></form>
${hasErrors ? '' : p.entries.length === 0 ? empty(p.page > 1 ? 'No entries on this page.' : 'No audit entries match.') : html`<h2 id="entries">Entries ${first}–${first + p.entries.length - 1}, newest first</h2>
<div class="figures-wrap" role="region" aria-labelledby="entries" tabindex="0"><table class="figures audit">
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Changes</th></tr></thead>
<tbody>${p.entries.map((e) => html`<tr><th scope="row">${isoMicros(e.at).slice(0, 19).replace('T', ' ')}</th><td>${actorText(e)}</td><td>${printable(e.action)}</td><td>${printable(e.target)}</td><td class="changes">${printable(describeChange(e))}</td></tr>`)}</tbody></table></div>`}
${hasErrors || (p.page === 1 && !p.more) ? '' : html`<nav class="pages" aria-label="Pages"><ul>${p.page > 1 ? html`<li>${pageLink(p, p.page - 1, 'Newer entries', 'prev')}</li>` : ''}${p.more ? html`<li>${pageLink(p, p.page + 1, 'Older entries', 'next')}</li>` : ''}</ul></nav>`}`;
  return staffPage(p, 'Audit log', main);
}
