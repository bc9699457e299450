// GET /staff/exams (contract §20): the upcoming and past examinations of the viewer's areas, the
// viewer's own as examiner first in each list: date, time, student, position, examiners, result.
import type { ExamList } from '../desk.service.js';
import { andList, whenText } from '../examinations.domain.js';
import { html } from '../../../core/web/html.js';
import { empty, staffPage, type StaffFrame } from '../../roles/index.js';

export interface ExamsPage extends StaffFrame {
  list: ExamList;
}

type Row = ExamList['examinations'][number];

export function examsPage(p: ExamsPage): Buffer {
  const { list } = p;
  const name = (cid: number) => `${list.names.get(cid) ?? 'CID'} (${cid})`;
  const mine = (x: Row) => x.examiners.includes(list.viewer);
  // The viewer's own first, each part in date order: soonest first upcoming, latest first past.
  const ordered = (rows: Row[]) => [...rows.filter(mine), ...rows.filter((x) => !mine(x))];
  const upcoming = ordered(list.examinations.filter((x) => x.result === null && x.examination_date >= list.today).reverse());
  const past = ordered(list.examinations.filter((x) => !(x.result === null && x.examination_date >= list.today)));
  // Cards, not a table: a phone shows each examination whole, without sideways scrolling.
  const cards = (rows: Row[], none: string) =>
    rows.length === 0
      ? empty(none)
      : html`<ul class="cards">
          ${rows.map(
            (x) =>
              html`<li class="card${mine(x) ? ' mine' : ''}">
                <p><strong>${whenText(x.examination_date, x.start)}</strong>, ${x.position} (${x.area})</p>
                <p>Student: ${x.linked ? html`<a href="/staff/trainings/${x.training_id}">${name(x.user_id)}</a>` : name(x.user_id)}</p>
                <p>
                  ${x.examiners.length > 1 ? 'Examiners' : 'Examiner'}:
                  ${andList(x.examiners.map(name))}${mine(x) ? html` <strong>(you)</strong>` : ''}
                </p>
                <p>Result: ${x.result ?? 'Planned, not graded yet'}</p>
              </li>`,
          )}
        </ul>`;
  const main = html`<p>Examinations of trainings in your areas, and those you examine (yours first).</p>
    <section aria-labelledby="upcoming-title">
      <h2 id="upcoming-title">Upcoming (${upcoming.length})</h2>
      ${cards(upcoming, 'No upcoming examinations.')}
    </section>
    <section aria-labelledby="past-title">
      <h2 id="past-title">Past and graded (${past.length})</h2>
      ${cards(past, 'No past examinations.')}
    </section>`;
  return staffPage(p, 'Examinations', main);
}
