// GET /staff/votes and GET /staff/votes/{id} (contract §23), for division-wide Administrators: every
// vote with its turnout (results once closed), Edit and Delete until the first ballot, a form to add one.
import { ELIGIBILITIES, ELIGIBILITY_TEXT, OPTIONS_MAX, QUESTION_MAX } from '../domain.js';
import type { VoteView } from '../votes.service.js';
import { closesText, results, turnoutText } from './parts.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty, field, formAction, type FormState, formError, options, staffPage, type StaffFrame, valueOf } from '../../roles/index.js';

const FIELDS = ['question', 'options', 'close_date', 'close_time', 'eligibility'];
const CHOICES = ELIGIBILITIES.map((e) => ({ value: e, text: `${e[0]!.toUpperCase()}${e.slice(1)}: ${ELIGIBILITY_TEXT[e]}` }));

function voteForm(
  p: StaffFrame & { state: FormState },
  form: string,
  action: string,
  initial: Record<string, string>,
  button: string,
): Html {
  const { state } = p;
  const v = (name: string) => valueOf(state, form, name, initial[name] ?? '');
  const control = {
    question: (id: string, aria: Html) =>
      html`<textarea id="${id}" name="question" rows="2" maxlength="${QUESTION_MAX}" ${aria}>${v('question')}</textarea>`,
    options: (id: string, aria: Html) => html`<textarea id="${id}" name="options" rows="5" ${aria}>${v('options')}</textarea>`,
    close_date: (id: string, aria: Html) => html`<input type="date" id="${id}" name="close_date" value="${v('close_date')}" ${aria} />`,
    close_time: (id: string, aria: Html) => html`<input type="time" id="${id}" name="close_time" value="${v('close_time')}" ${aria} />`,
    eligibility: (id: string, aria: Html) =>
      html`<select id="${id}" name="eligibility" ${aria}>
        ${options(CHOICES, v('eligibility'))}
      </select>`,
  };
  const f = (name: keyof typeof control, label: string, hint?: string) =>
    field({ form, name, label, state, control: control[name], ...(hint === undefined ? {} : { hint }) });
  // prettier-ignore
  return html`<form method="post" action="${formAction(action, form)}" class="staff-form" novalidate>${p.csrf}
${formError(state, form, FIELDS)}${f('question', 'Question', `1 to ${QUESTION_MAX} characters`)}${f('options', 'Options', `2 to ${OPTIONS_MAX}, one a line`)}
<div class="times">${f('close_date', 'Closing day (UTC)', 'YYYY-MM-DD, in the future')}${f('close_time', 'Closing time (UTC)', 'HH:MM')}</div>
${f('eligibility', 'Who may vote', 'Judged when each ballot is cast')}
<div class="actions"><button type="submit">${button}</button></div></form>`;
}

export interface StaffVotesPage extends StaffFrame {
  votes: readonly VoteView[];
  state: FormState;
  notice: string | null;
}

export function staffVotesPage(p: StaffVotesPage): Buffer {
  // prettier-ignore
  const list = p.votes.length === 0 ? empty('No votes yet.') : html`<ul class="reports">${p.votes.map((v) => html`<li><h3>${v.vote.question}</h3>
<p>${closesText(v)} · for ${ELIGIBILITY_TEXT[v.vote.eligibility]} · ${turnoutText(v)}</p>
${v.open ? html`<ul>${v.options.map((o) => html`<li>${o.text}</li>`)}</ul>` : results(v)}
${v.vote.ballots === 0 && v.open ? html`<div class="actions"><a href="/staff/votes/${v.vote.id}" aria-label="${`Edit the vote ${v.vote.question}`}">Edit</a>
<form method="post" action="/staff/votes/${v.vote.id}/delete" class="inline">${p.csrf}<button type="submit" class="secondary" aria-label="${`Delete the vote ${v.vote.question}`}">Delete</button></form></div>` : ''}</li>`)}</ul>`;
  // prettier-ignore
  const main = html`<p>Members see open votes on their page and at <a href="/votes">Votes</a>. Ballots are secret: Sector keeps who voted (the day only) and, apart, the count per option. A vote cannot be changed once a ballot is cast.</p>
<section aria-labelledby="votes-title"><h2 id="votes-title">Votes</h2>${list}</section>
<section aria-labelledby="vote-new-title"><h2 id="vote-new-title">Add a vote</h2>
${voteForm(p, 'vote-new', '/staff/votes', { eligibility: 'members', close_time: '20:00' }, 'Add vote')}</section>`;
  return staffPage(p, 'Votes', main, p.notice);
}

export interface StaffVotePage extends StaffFrame {
  vote: VoteView;
  state: FormState;
}

export function staffVotePage(p: StaffVotePage): Buffer {
  const { vote } = p.vote;
  const at = new Date(vote.closes_at).toISOString();
  const initial = {
    question: vote.question,
    options: p.vote.options.map((o) => o.text).join('\n'),
    close_date: at.slice(0, 10),
    close_time: at.slice(11, 16),
    eligibility: vote.eligibility,
  };
  const main = html`<p><a href="/staff/votes">All votes</a></p>
    ${voteForm(p, 'vote', `/staff/votes/${vote.id}`, initial, 'Save vote')}`;
  return staffPage(p, 'Edit vote', main);
}
