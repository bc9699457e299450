// GET /staff/students (contract §20): a mentor's own trainees — name, area, what for, status, days in
// training, the last report and days since, the next examination — the oldest last report first.
// The same table heads /staff for mentors.
import { trainingStatusDescription } from '../../members/domain/training-status.js';
import type { Student } from '../staff.types.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty, type StaffFrame, staffPage } from '../../roles/index.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The trainees' table (or a line saying there are none). */
export function studentsTable(students: readonly Student[]): Html {
  if (students.length === 0) return empty('You mentor no open training.');
  // prettier-ignore
  return html`<ol class="cards students">${students.map((s) => html`<li class="card">
<p><a href="/staff/trainings/${s.training.id}">${s.name}</a>: ${s.training.area}, ${s.training.ratings.join(', ') || s.training.type}</p>
<p>${trainingStatusDescription(s.training.status)}${s.training.paused_at === null ? '' : ' (paused)'}, ${plural(s.daysInTraining, 'day')} in training</p>
<p class="when">Last report: ${s.lastReport === null ? 'none yet' : `${s.lastReport}, ${plural(s.daysSinceReport!, 'day')} ago`}. Next examination: ${s.nextExam ?? 'none planned'}.</p>
</li>`)}</ol>`;
}

export interface StudentsPage extends StaffFrame {
  students: Student[];
}

export function studentsPage(p: StudentsPage): Buffer {
  return staffPage(p, 'My students', studentsTable(p.students));
}
