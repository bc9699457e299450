// GET /staff/tasks (contract §21): the tasks waiting for the viewer first, then those they sent
// that wait, then every task of theirs closed in the last 90 days.
import { type Html, html } from '../../../core/web/html.js';
import { empty, type FormState, staffPage, type StaffFrame } from '../../roles/index.js';
import { CLOSED_SHOWN_DAYS } from '../domain.js';
import type { MemberTasks } from '../task-pages.service.js';
import { taskItem } from './task-items.js';

export interface TasksPage extends StaffFrame {
  viewer: number;
  tasks: MemberTasks;
  state: FormState;
  notice: string | null;
}

export function tasksPage(p: TasksPage): Buffer {
  const c = { viewer: p.viewer, names: p.tasks.names, csrf: p.csrf, state: p.state, linkTraining: true };
  const list = (id: string, title: string, rows: MemberTasks['received'], none: string): Html =>
    html`<section aria-labelledby="${id}">
      <h2 id="${id}">${title}</h2>
      ${
        rows.length === 0
          ? empty(none)
          : html`<ul class="cards">
              ${rows.map((t) => taskItem(t, c))}
            </ul>`
      }
    </section>`;
  const main = html`${list('received-title', `Waiting for you (${p.tasks.received.length})`, p.tasks.received, 'Nothing is waiting for you.')}
  ${list('sent-title', 'Sent by you, waiting', p.tasks.sent, 'None of your tasks is waiting.')}
  ${list('closed-title', `Closed in the last ${CLOSED_SHOWN_DAYS} days`, p.tasks.closed, 'None.')}`;
  return staffPage(p, 'Tasks', main, p.notice);
}
