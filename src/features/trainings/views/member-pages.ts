// The student's training pages (contract §18): applying, and "My training" with the place in the
// queue, the estimate, published reports, examinations, and the interest and close forms.
import type { MyTraining } from '../applications.service.js';
import type { FieldErrors } from '../../../core/domain/errors.js';
import { EXPERIENCE, type ApplyOption, MOTIVATION_MAX, MOTIVATION_MIN, ordinal, waitInWords } from '../domain.js';
import { described, fieldError, frame, type PageFrame } from '../../bookings/index.js';
import { type Html, html } from '../../../core/web/html.js';
import { attachmentList } from './attachments.js';

export interface ApplyValues {
  area: string;
  ratings: readonly string[];
  motivation: string;
  experience: string;
  english_only: boolean;
}

export interface ApplyForm extends PageFrame {
  options: readonly ApplyOption[];
  values: ApplyValues;
  errors: FieldErrors;
}

const checked = (on: boolean) => (on ? html` checked` : '');

export function applyPage(f: ApplyForm): Buffer {
  const { values, errors } = f;
  if (f.options.length === 0) {
    // prettier-ignore
    return frame(f, 'Apply for training', html`<p class="notice">There is nothing you can apply for here: staff create trainings above C1 and for endorsements above your rating.</p>`);
  }
  const nextRatings = [...new Set(f.options.flatMap((o) => (o.rating ? [o.rating] : [])))];
  const facilities = f.options.flatMap((o) => o.facilities.map((name) => ({ name, area: o.area })));
  const hasErrors = Object.keys(errors).length > 0;
  // prettier-ignore
  const main = html`${hasErrors ? html`<p class="error" role="alert">Your application was not sent: see the messages below.</p>` : ''}
<form method="post" action="/training/apply" class="training-form" novalidate>
${f.csrf}
<div class="field"><label for="area">Area</label>
<select id="area" name="area" required${described('area', errors)}><option value="">Choose an area</option>${f.options.map(
    (o) => html`<option value="${o.area}"${o.area === values.area ? html` selected` : ''}>${o.area}</option>`,
  )}</select>${fieldError('area', errors)}</div>
<fieldset class="field"${described('ratings', errors)}><legend>Train for</legend>
${nextRatings.map((r) => html`<label class="check"><input type="checkbox" name="ratings" value="${r}"${checked(values.ratings.includes(r))}> The ${r} rating</label>`)}
${facilities.map((x) => html`<label class="check"><input type="checkbox" name="ratings" value="${x.name}"${checked(values.ratings.includes(x.name))}> ${x.name} (${x.area})</label>`)}
${fieldError('ratings', errors)}</fieldset>
<div class="field"><label for="motivation">Motivation</label>
<textarea id="motivation" name="motivation" rows="8" minlength="${MOTIVATION_MIN}" maxlength="${MOTIVATION_MAX}" required${described('motivation', errors, 'motivation-hint')}>${values.motivation}</textarea>
<p class="hint" id="motivation-hint">Why you want to train, in ${MOTIVATION_MIN} to ${MOTIVATION_MAX} characters.</p>${fieldError('motivation', errors)}</div>
<div class="field"><label for="experience">Experience</label>
<select id="experience" name="experience" required${described('experience', errors)}><option value="">Choose</option>${Object.entries(EXPERIENCE).map(
    ([n, text]) => html`<option value="${n}"${values.experience === n ? html` selected` : ''}>${text}</option>`,
  )}</select>${fieldError('experience', errors)}</div>
<label class="check"><input type="checkbox" name="english_only" value="on"${checked(values.english_only)}> I can only be trained in English</label>
<div class="actions"><button type="submit">Apply</button> <a href="/my/training">My training</a></div>
</form>`;
  return frame(f, 'Apply for training', main);
}

export interface MyTrainingPage extends PageFrame {
  mine: MyTraining | null;
  notice: string | null;
}

const day = (iso: string) => iso.slice(0, 10);

function queueBox(m: MyTraining): Html | '' {
  if (m.place === null) return '';
  const estimate =
    m.estimate === null
      ? 'not enough data yet'
      : m.estimate.low === m.estimate.high
        ? `about ${waitInWords(m.estimate.low)}`
        : `${waitInWords(m.estimate.low)} to ${waitInWords(m.estimate.high)}`;
  // prettier-ignore
  return html`<section aria-labelledby="queue-title"><h2 id="queue-title">Queue</h2>
<p class="place">You are <strong>${ordinal(m.place.position)} of ${m.place.of}</strong> in the queue for ${m.training.ratings.join(', ')} in ${m.training.area}.</p>
<p>Expected wait, from the trainings that left this queue in the last two years: ${estimate}.</p></section>`;
}

export function myTrainingPage(p: MyTrainingPage): Buffer {
  const notice = p.notice === null ? '' : html`<p class="notice" role="status">${p.notice}</p>`;
  const m = p.mine;
  if (m === null || m.training.status < 0) {
    const last = m === null ? '' : html`<p>Your last training (${m.training.area}) is ${m.training.status_description.toLowerCase()}.</p>`;
    return frame(
      p,
      'My training',
      html`${notice}${last}
        <p>You have no open training. <a href="/training/apply">Apply for training</a></p>`,
    );
  }
  const t = m.training;
  // prettier-ignore
  const interest = m.interestDeadline === null ? '' : html`<section class="feed-box" aria-labelledby="interest-title"><h2 id="interest-title">Do you still want this training?</h2>
<p>Confirm by ${new Date(m.interestDeadline).toISOString().slice(0, 10)}, or your request is closed.</p>
<form method="post" action="/my/training/interest" class="inline">${p.csrf}<button type="submit">Yes, I still want it</button></form></section>`;
  // prettier-ignore
  const main = html`${notice}${interest}
<dl class="facts">
<dt>Status</dt><dd>${t.status_description}${t.paused ? ' (paused)' : ''}</dd>
<dt>Area</dt><dd>${t.area}</dd>
<dt>For</dt><dd>${t.ratings.join(', ')}</dd>
<dt>Type</dt><dd>${t.type}</dd>
<dt>Applied</dt><dd>${day(t.created_at)}</dd>
${t.mentors.length > 0 ? html`<dt>Mentors</dt><dd>${t.mentors.join(', ')}</dd>` : ''}
</dl>
${queueBox(m)}
<section aria-labelledby="reports-title"><h2 id="reports-title">Reports</h2>
${t.reports.length === 0 ? html`<p class="empty">No reports yet.</p>` : html`<ul class="reports">${t.reports.map(
    (r) => html`<li><h3>${r.report_date}${r.position ? ` — ${r.position}` : ''}</h3><div class="report-text">${r.content}</div>${r.improve ? html`<p><strong>To improve:</strong></p><div class="report-text">${r.improve}</div>` : ''}${attachmentList(r.attachments, '/my/attachments')}</li>`,
  )}</ul>`}
</section>
<section aria-labelledby="exams-title"><h2 id="exams-title">Examinations</h2>
${t.examinations.length === 0 ? html`<p class="empty">No examinations yet.</p>` : html`<ul class="exams">${t.examinations.map(
    (e) => html`<li>${e.examination_date}, ${e.position}: <strong>${e.result}</strong>${attachmentList(e.attachments, '/my/attachments')}</li>`,
  )}</ul>`}
</section>
<section aria-labelledby="close-title"><h2 id="close-title">Close my request</h2>
<p>If you no longer want this training, close it. You can apply again later, at the end of the queue.</p>
<form method="post" action="/my/training/close" class="inline">${p.csrf}<button type="submit" class="secondary">Close my training request</button></form></section>`;
  return frame(p, 'My training', main);
}
