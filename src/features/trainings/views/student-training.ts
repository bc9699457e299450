// What a student sees of their trainings (contract §20), shared by "My training" and the member's
// home: the open training (status, place in the queue and estimate, mentors by name, the next
// planned examination, published reports, examinations) and the past trainings with everything the
// student saw while they were open. People are named "First Last (cid)".
import type { MyTraining } from '../applications.service.js';
import type { StudentTrainings } from '../student.service.js';
import type { TrainingDetail } from '../trainings.schema.js';

type Report = TrainingDetail['reports'][number];
type Examination = TrainingDetail['examinations'][number];
import { ordinal, waitInWords } from '../domain.js';
import { ratingValue } from '../../members/domain/ratings.js';
import { personName } from '../../members/domain/names.js';
import { type Html, html } from '../../../core/web/html.js';
import { markdownHtml } from '../../../core/web/markdown.js';
import { attachmentList } from './attachments.js';

type Names = ReadonlyMap<number, string>;

/** An examination without a result, or one still ahead, is planned. */
export const isPlanned = (x: { result: string | null; examination_date: string }, today: string): boolean =>
  x.result === null || x.examination_date > today;

const RESULT_WORDS: Readonly<Record<string, string>> = {
  PASSED: 'Passed',
  FAILED: 'Failed',
  INCOMPLETE: 'Incomplete',
  POSTPONED: 'Postponed',
};
/** A result in words; no result yet: planned. */
export const resultText = (result: string | null): string => (result === null ? 'planned' : (RESULT_WORDS[result] ?? result));

/** "examiner Ada Lind" or "examiners Ada Lind and Bo Berg". */
const examinerNames = (names: Names, examiners: readonly number[]) =>
  `${examiners.length > 1 ? 'examiners' : 'examiner'} ${examiners.map((cid) => personName(names, cid)).join(' and ')}`;
const day = (iso: string | null) => (iso === null ? '' : iso.slice(0, 10));

/** The rating codes a training is for (its other entries are facility endorsements). */
export const ratingsOf = (t: { ratings: readonly string[] }): string[] => t.ratings.filter((r) => ratingValue(r) !== undefined);

/** What happens after a completed rating training (the network changes ratings, not this site). */
export function studentCompletionNote(t: Pick<TrainingDetail, 'status' | 'ratings'>): Html | '' {
  const ratings = ratingsOf(t);
  if (t.status !== -1 || ratings.length === 0) return '';
  // prettier-ignore
  return html`<p class="notice completion">Training completed. The ${ratings.join(', ')} rating itself is given by the network, not by this site: the division's staff ask the network to upgrade your rating, and it shows here once the network has changed it (at your next sign-in).</p>`;
}

/** The same for staff, on the training page: the rating is requested from the network. */
export function staffCompletionNote(t: Pick<TrainingDetail, 'status' | 'ratings'>): Html | '' {
  const ratings = ratingsOf(t);
  if (t.status !== -1 || ratings.length === 0) return '';
  // prettier-ignore
  return html`<p class="notice completion">Next: the ${ratings.join(', ')} rating is not changed by completing the training here. Ask the network to upgrade the student's rating; it shows here once the network has changed it (at the student's next sign-in or the roster update).</p>`;
}

function queueText(m: MyTraining): Html | '' {
  if (m.place === null) return '';
  const estimate =
    m.estimate === null
      ? 'not enough data yet'
      : m.estimate.low === m.estimate.high
        ? `about ${waitInWords(m.estimate.low)}`
        : `${waitInWords(m.estimate.low)} to ${waitInWords(m.estimate.high)}`;
  // prettier-ignore
  return html`<p class="place">You are <strong>${ordinal(m.place.position)} of ${m.place.of}</strong> in the queue for ${m.training.ratings.join(', ')} in ${m.training.area}.</p>
<p>Expected wait, from the trainings that left this queue in the last two years: ${estimate}.</p>`;
}

function reportList(reports: readonly Report[], names: Names): Html {
  if (reports.length === 0) return html`<p class="empty">No reports yet.</p>`;
  // prettier-ignore
  return html`<ul class="reports">${reports.map((r) => html`<li><h4>${r.report_date}${r.position ? ` — ${r.position}` : ''}</h4>${r.author_id === null ? '' : html`<p class="hint">by ${personName(names, r.author_id)}</p>`}${markdownHtml(r.content)}${r.improve ? html`<p><strong>To improve:</strong></p>${markdownHtml(r.improve)}` : ''}${attachmentList(r.attachments, '/my/attachments')}</li>`)}</ul>`;
}

function examList(exams: readonly Examination[], names: Names): Html {
  if (exams.length === 0) return html`<p class="empty">No examinations yet.</p>`;
  // prettier-ignore
  return html`<ul class="exams">${exams.map((x) => html`<li>${x.examination_date}, ${x.position}, ${examinerNames(names, x.examiners)}: <strong>${resultText(x.result)}</strong>${attachmentList(x.attachments, '/my/attachments')}</li>`)}</ul>`;
}

/** The facts of a training: status, area, what for, type, dates, mentors. */
function facts(t: TrainingDetail, names: Names): Html {
  // prettier-ignore
  return html`<dl class="facts">
<dt>Status</dt><dd>${t.status_description}${t.paused ? ' (paused)' : ''}</dd>
<dt>Area</dt><dd>${t.area}</dd>
<dt>For</dt><dd>${t.ratings.join(', ')}</dd>
<dt>Type</dt><dd>${t.type}</dd>
<dt>Applied</dt><dd>${day(t.created_at)}</dd>
${t.closed_at ? html`<dt>Closed</dt><dd>${day(t.closed_at)}${t.closed_reason ? `: ${t.closed_reason}` : ''}</dd>` : ''}
<dt>Mentors</dt><dd>${t.mentors.length === 0 ? 'none yet' : t.mentors.map((m) => personName(names, m)).join(', ')}</dd>
</dl>`;
}

/** The open training: its facts, place in the queue, next planned examination, reports and examinations (headings from h2). */
export function openTrainingSection(m: MyTraining, names: Names, today: string, extra: Html | '' = ''): Html {
  const t = m.training;
  const next = t.examinations.find((x) => isPlanned(x, today));
  // prettier-ignore
  return html`<section aria-labelledby="open-title" class="open-training"><h2 id="open-title">Your training: ${t.ratings.join(', ')} in ${t.area}</h2>
${facts(t, names)}
${queueText(m)}
${next ? html`<p class="next-exam"><strong>Next examination:</strong> ${next.examination_date}, ${next.position}, ${examinerNames(names, next.examiners)}</p>` : ''}
${extra}
<h3 id="open-reports-title">Reports</h3>
${reportList(t.reports, names)}
<h3 id="open-exams-title">Examinations</h3>
${examList(t.examinations, names)}
</section>`;
}

/** Past trainings, newest first, each with its published reports and examinations. */
export function pastTrainingsSection(past: readonly TrainingDetail[], names: Names): Html {
  // prettier-ignore
  return html`<section aria-labelledby="past-title"><h2 id="past-title">Past trainings</h2>
${past.length === 0 ? html`<p class="empty">No past trainings.</p>` : past.map((t) => html`<article class="past-training" aria-labelledby="past-${t.id}"><h3 id="past-${t.id}">${t.ratings.join(', ')} in ${t.area}: ${t.status_description}</h3>
${studentCompletionNote(t)}${facts(t, names)}
<h4 class="sub">Reports</h4>${reportList(t.reports, names)}
<h4 class="sub">Examinations</h4>${examList(t.examinations, names)}</article>`)}
</section>`;
}

/** The open training, or the way to apply, as the member's home shows it. */
export function openTrainingSummary(mine: StudentTrainings, today: string): Html {
  if (mine.open === null) {
    // prettier-ignore
    return html`<section aria-labelledby="open-title" class="open-training"><h2 id="open-title">Training</h2>
<p>You have no open training.</p>
<p><a class="button" href="/training/apply">Apply for training</a></p></section>`;
  }
  return openTrainingSection(mine.open, mine.names, today, html`<p><a href="/my/training">Your training page</a></p>`);
}
