// What the staff's and the members' vote pages share: the closing time and the results.
import { type Html, html } from '../../../core/web/html.js';
import type { VoteView } from '../votes.service.js';

export const closesText = (v: VoteView): string =>
  `${v.open ? 'Closes' : 'Closed'} ${new Date(v.vote.closes_at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const turnoutText = (v: VoteView): string => `${v.vote.ballots} ${v.vote.ballots === 1 ? 'ballot' : 'ballots'} cast`;

/** The counts per option as a table, with each one's share. */
export function results(v: VoteView): Html {
  const total = v.options.reduce((n, o) => n + o.count, 0);
  // prettier-ignore
  return html`<table><caption>Results (${turnoutText(v)})</caption><thead><tr><th scope="col">Option</th><th scope="col">Votes</th><th scope="col">Share</th></tr></thead>
<tbody>${v.options.map((o) => html`<tr><td>${o.text}</td><td>${o.count}</td><td>${total === 0 ? '–' : `${Math.round((o.count / total) * 100)} %`}</td></tr>`)}</tbody></table>`;
}
