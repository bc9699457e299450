// The student's training pages (contract §18): applying, and "My training" with the place in the
// queue, the estimate, published reports, examinations, and the interest and close forms.
import type { StudentTrainings } from '../student.service.js';
import { openTrainingSection, pastTrainingsSection } from './student-training.js';
import type { FieldErrors } from '../../../core/domain/errors.js';
import { EXPERIENCE, type ApplyOption, MOTIVATION_MAX, MOTIVATION_MIN } from '../domain.js';
import { described, fieldError, frame, type PageFrame } from '../../bookings/index.js';
import { html } from '../../../core/web/html.js';

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
  // A first view pre-selects the only choice there is (a form sent back keeps what was sent).
  const choices = [...nextRatings, ...facilities.map((x) => x.name)];
  const area = !hasErrors && values.area === '' && f.options.length === 1 ? f.options[0]!.area : values.area;
  const ticked = !hasErrors && values.ratings.length === 0 && choices.length === 1 ? choices : values.ratings;
  // prettier-ignore
  const main = html`${hasErrors ? html`<p class="error" role="alert">Your application was not sent: see the messages below.</p>` : ''}
<form method="post" action="/training/apply" class="training-form" novalidate>
${f.csrf}
<div class="field"><label for="area">Area</label>
<select id="area" name="area" required${described('area', errors)}><option value="">Choose an area</option>${f.options.map(
    (o) => html`<option value="${o.area}"${o.area === area ? html` selected` : ''}>${o.area}</option>`,
  )}</select>${fieldError('area', errors)}</div>
<fieldset class="field"${described('ratings', errors)}><legend>Train for</legend>
${nextRatings.map((r) => html`<label class="check"><input type="checkbox" name="ratings" value="${r}"${checked(ticked.includes(r))}> The ${r} rating</label>`)}
${facilities.map((x) => html`<label class="check"><input type="checkbox" name="ratings" value="${x.name}"${checked(ticked.includes(x.name))}> ${x.name} (${x.area})</label>`)}
${fieldError('ratings', errors)}</fieldset>
<div class="field"><label for="motivation">Motivation</label>
<textarea id="motivation" name="motivation" rows="8" minlength="${MOTIVATION_MIN}" maxlength="${MOTIVATION_MAX}" required${described('motivation', errors, 'motivation-hint')}>${values.motivation}</textarea>
<p class="hint" id="motivation-hint">Why you want to train: at least ${MOTIVATION_MIN} and at most ${MOTIVATION_MAX} characters.</p>${fieldError('motivation', errors)}</div>
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
  mine: StudentTrainings;
  today: string;
  notice: string | null;
}

export function myTrainingPage(p: MyTrainingPage): Buffer {
  const notice = p.notice === null ? '' : html`<p class="notice" role="status">${p.notice}</p>`;
  const m = p.mine.open;
  const past = pastTrainingsSection(p.mine.past, p.mine.names);
  if (m === null) {
    // prettier-ignore
    return frame(p, 'My training', html`${notice}
<p>You have no open training. <a href="/training/apply">Apply for training</a></p>
${past}`);
  }
  // prettier-ignore
  const interest = m.interestDeadline === null ? '' : html`<section class="feed-box" aria-labelledby="interest-title"><h2 id="interest-title">Do you still want this training?</h2>
<p>Confirm by ${new Date(m.interestDeadline).toISOString().slice(0, 10)}, or your request is closed.</p>
<form method="post" action="/my/training/interest" class="inline">${p.csrf}<button type="submit">Yes, I still want it</button></form></section>`;
  // prettier-ignore
  const main = html`${notice}${interest}
${openTrainingSection(m, p.mine.names, p.today)}
<section aria-labelledby="close-title"><h2 id="close-title">Close my request</h2>
<p>If you no longer want this training, close it. You can apply again later, at the end of the queue.</p>
<form method="post" action="/my/training/close" class="inline">${p.csrf}<button type="submit" class="secondary">Close my training request</button></form></section>
${past}`;
  return frame(p, 'My training', main);
}
