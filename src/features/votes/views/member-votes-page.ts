// GET /votes and GET /votes/{id} (contract §23): the votes a member may see, and one vote with its
// ballot form (while open, for the eligible who have not voted), or the results once it has closed.
import type { PageFrame } from '../../bookings/index.js';
import { frame } from '../../bookings/index.js';
import type { MemberVote } from '../votes.service.js';
import { closesText, results, turnoutText } from './parts.js';
import { type Html, html } from '../../../core/web/html.js';

const status = (v: MemberVote): string =>
  v.voted ? 'You have voted.' : v.eligible ? 'You have not voted yet.' : v.open ? (v.reason ?? '') : 'Closed.';

export function votesPage(p: PageFrame & { votes: readonly MemberVote[] }): Buffer {
  // prettier-ignore
  const main = p.votes.length === 0 ? html`<p class="none">No votes for you at the moment.</p>` : html`<ul class="reports">${p.votes.map((v) => html`<li><h2><a href="/votes/${v.vote.id}">${v.vote.question}</a></h2><p>${closesText(v)} · ${status(v)}</p></li>`)}</ul>`;
  return frame(p, 'Votes', main);
}

export interface VotePage extends PageFrame {
  vote: MemberVote;
  error: string | null;
  notice: string | null;
}

export function votePage(p: VotePage): Buffer {
  const v = p.vote;
  let body: Html;
  if (v.results) body = results(v);
  else if (v.eligible)
    // prettier-ignore
    body = html`<form method="post" action="/votes/${v.vote.id}" novalidate>${p.csrf}<fieldset${p.error ? html` aria-describedby="ballot-error"` : ''}><legend>Your choice</legend>
${v.options.map((o) => html`<div class="choice"><input type="radio" id="option-${o.id}" name="option" value="${o.id}" /><label for="option-${o.id}">${o.text}</label></div>`)}
</fieldset>${p.error ? html`<p class="error" id="ballot-error" role="alert">${p.error}</p>` : ''}
<p class="hint">Your ballot is secret: Sector records that you voted, not what you chose. It cannot be changed.</p>
<div class="actions"><button type="submit">Cast my vote</button></div></form>`;
  else
    body = html`<ul>
      ${v.options.map((o) => html`<li>${o.text}</li>`)}
    </ul>`;
  // prettier-ignore
  const main = html`${p.notice ? html`<p class="notice" role="status">${p.notice}</p>` : ''}<p><a href="/votes">All votes</a></p><p class="lead">${v.vote.question}</p>
<p>${closesText(v)} · ${status(v)}${v.admin && v.open ? ` · ${turnoutText(v)}` : ''}</p>${body}`;
  return frame(p, 'Vote', main);
}
