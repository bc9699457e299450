// GET /my, the member's home (contract §20): the open training first (on a phone's first screen),
// then upcoming bookings, active endorsements, ATC hours per area with the activity status, the
// examinations the member holds as examiner, past trainings and, for staff, what needs attention.
// A section that would only say "none" for this member (endorsements, hours, examinations as
// examiner, past trainings) is left out; bookings stay, as their links are how one books.
import type { Home } from '../home.service.js';
import type { Endorsement } from '../../endorsements/index.js';
import type { ActivityExplanation } from '../../activity/index.js';
import { openTrainingSummary, pastTrainingsSection } from '../../trainings/index.js';
import { studentsTable } from '../../staff/index.js';
import { frame, type PageFrame, whenText } from '../../bookings/index.js';
import { personName } from '../../members/domain/names.js';
import { closesText } from '../../votes/index.js';
import { type Html, html } from '../../../core/web/html.js';

export interface HomePage extends PageFrame {
  home: Home;
}

const utc = (iso: string | null) => (iso === null ? 'no end' : `${iso.slice(0, 16).replace('T', ' ')} UTC`);
const utcMs = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const empty = (text: string) => html`<p class="empty">${text}</p>`;

function endorsementText(e: Endorsement): string {
  const until = e.valid_to === null ? '' : `, until ${utc(e.valid_to)}`;
  switch (e.type) {
    case 'solo':
      return `Solo on ${e.positions.join(', ')}${e.valid_to === null ? ', no end' : until}`;
    case 'facility':
      return `Facility: ${e.rating ?? ''}${until}`;
    case 'examiner':
      return `Examiner up to ${e.rating ?? ''} in ${e.areas.join(', ')}${until}`;
    case 'visiting':
      return `Visiting ${e.rating ?? ''} in ${e.areas.join(', ')}${until}`;
    default:
      return `${e.type.toUpperCase()} on ${e.positions.join(', ')}${until}`;
  }
}

function hoursText(h: ActivityExplanation): string {
  const of = h.required_hours === null ? '' : ` of ${h.required_hours} h`;
  const grace = h.grace_until === null ? '' : `; grace until ${utcMs(h.grace_until)}`;
  const status =
    h.reason === 'grace'
      ? 'active (grace period)'
      : h.reason === 'below'
        ? `not active: below ${h.required_hours ?? 0} hours`
        : h.active
          ? 'active'
          : 'not active';
  return `${h.hours.toFixed(2)} h${of} — ${status}${grace}`;
}

function attention(home: Home): Html | '' {
  const a = home.attention;
  if (a === null) return '';
  const training = (t: { id: number; area: string; ratings: string[]; type: string }) => {
    const what = `${t.area}, ${t.ratings.join(', ') || t.type}`;
    return a.opens.has(t.id) ? html`<a href="/staff/trainings/${t.id}">${what}</a>` : what;
  };
  // prettier-ignore
  return html`<section aria-labelledby="attention-title"><h2 id="attention-title">Needs attention</h2>
<p class="tasks-waiting"><a href="/staff/tasks">${home.tasksWaiting === 1 ? '1 task is' : `${home.tasksWaiting} tasks are`} waiting for you</a></p>
${a.students === null ? '' : html`<h3>My students (${a.students.length})</h3>${studentsTable(a.students)}`}
<h3>Solo endorsements ending within 7 days (${a.endingSolos.length})</h3>
${a.endingSolos.length === 0 ? empty('None.') : html`<ul>${a.endingSolos.map(({ item: e, name }) => html`<li>${name} (${e.user_id}): ${e.positions.join(', ')}, ends ${utc(e.valid_to)}</li>`)}</ul>`}
<h3>Open trainings without a mentor (${a.unmentored.length})</h3>
${a.unmentored.length === 0 ? empty('None.') : html`<ul>${a.unmentored.map(({ item: t, name }) => html`<li>${name} (${t.user_id}): ${training(t)}</li>`)}</ul>`}
<h3>Training queue (${a.queue.length})</h3>
${a.queue.length === 0 ? empty('Nobody is waiting.') : html`<ol>${a.queue.map(({ item: t, name }) => html`<li>${name} (${t.user_id}): ${training(t)}</li>`)}</ol>`}
<p><a href="/staff">Staff overview</a></p></section>`;
}

/** Open votes the member has not voted in yet (§23); nothing when there are none. */
function openVotes(home: Home): Html | '' {
  if (home.votes.length === 0) return '';
  // prettier-ignore
  return html`<section aria-labelledby="votes-title"><h2 id="votes-title">Open votes</h2>
<ul>${home.votes.map((v) => html`<li><a href="/votes/${v.vote.id}">${v.vote.question}</a> (${closesText(v)})</li>`)}</ul></section>`;
}

export function homePage(p: HomePage): Buffer {
  const h = p.home;
  // prettier-ignore
  const main = html`${openTrainingSummary(h.trainings, h.today)}${openVotes(h)}
<section aria-labelledby="bookings-title"><h2 id="bookings-title">Upcoming bookings</h2>
${h.bookings.length === 0 ? empty('No upcoming bookings.') : html`<ul class="cards">${h.bookings.map((b) => html`<li class="card"><p><strong class="callsign">${b.callsign}</strong> ${b.position_name}</p><p class="when">${whenText(b)}</p></li>`)}</ul>`}
<p><a href="/bookings/new">Book a position</a> · <a href="/my/bookings">My bookings</a> · <a href="/feedback">Send feedback</a></p></section>
${h.endorsements.length === 0 ? '' : html`<section aria-labelledby="endorsements-title"><h2 id="endorsements-title">Active endorsements</h2>
<ul class="endorsements">${h.endorsements.map((e) => html`<li>${endorsementText(e)}</li>`)}</ul></section>`}
${h.hours.length === 0 ? '' : html`<section aria-labelledby="hours-title"><h2 id="hours-title">ATC hours this period</h2>
<ul class="hours">${h.hours.map((x) => html`<li><strong>${x.area}</strong>: ${hoursText(x)}</li>`)}</ul></section>`}
${h.examining.length === 0 ? '' : html`<section aria-labelledby="examining-title"><h2 id="examining-title">My examinations as examiner</h2>
<ul class="exams">${h.examining.map((x) => html`<li>${x.examination_date}, ${x.position}: ${personName(h.names, x.user_id)} (${x.area})</li>`)}</ul></section>`}
${h.trainings.past.length === 0 ? '' : pastTrainingsSection(h.trainings.past, h.trainings.names)}
${attention(h)}`;
  return frame(p, 'My page', main);
}
