// A task as the staff pages show it (contract §21): what is asked, for whom, by and of whom, with
// the forms the viewer may use — complete or decline (the assignee), withdraw (the creator).
import { type Html, html } from '../../../core/web/html.js';
import { personName } from '../../members/domain/names.js';
import { ratingCode } from '../../members/domain/ratings.js';
import { errorsOf, formAction, formError, type FormState, utcText, valueOf } from '../../roles/index.js';
import { TASK_TYPE_TEXT } from '../domain.js';
import type { TaskRow } from '../tasks.repository.js';

export interface ItemContext {
  viewer: number;
  names: ReadonlyMap<number, string>;
  csrf: Html;
  state: FormState;
  /** Whether to name the training with a link (the tasks list; not on the training's own page). */
  linkTraining: boolean;
}

const STATUS_TEXT: Record<TaskRow['status'], string> = {
  pending: 'Waiting',
  completed: 'Completed',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};

/** "Rating upgrade to S3", "Theory exam access for S3", "Solo endorsement". */
export function taskTitle(t: TaskRow): string {
  if (t.rating === null) return TASK_TYPE_TEXT[t.type];
  return `${TASK_TYPE_TEXT[t.type]} ${t.type === 'rating_upgrade' ? 'to' : 'for'} ${ratingCode(t.rating)}`;
}

export function taskItem(t: TaskRow, c: ItemContext): Html {
  const name = (cid: number) => personName(c.names, cid);
  const form = `task-${t.id}`;
  const errors = errorsOf(c.state, form);
  const msgId = `${form}-closed_message`;
  const closeForm = (statuses: Array<{ value: string; text: string }>) =>
    // prettier-ignore
    html`<form method="post" action="${formAction(`/staff/tasks/${t.id}/close`, form)}" class="staff-form task-close" novalidate>${c.csrf}
${formError(c.state, form, ['closed_message'])}
<div class="field"><label for="${msgId}">Message (optional)</label><textarea id="${msgId}" name="closed_message" rows="2" maxlength="1000"${errors.closed_message ? html` aria-invalid="true" aria-describedby="${msgId}-error"` : ''}>${valueOf(c.state, form, 'closed_message')}</textarea>${errors.closed_message ? html`<p class="error" id="${msgId}-error">${errors.closed_message.join(' ')}</p>` : ''}</div>
<div class="actions">${statuses.map((s) => html`<button type="submit" name="status" value="${s.value}">${s.text}</button>`)}</div></form>`;
  const open = t.status === 'pending';
  // A closing refused because the task closed meanwhile has no form left: its message shows on the item.
  const forms = !open
    ? formError(c.state, form, [])
    : t.assignee_id === c.viewer
      ? closeForm([
          { value: 'completed', text: t.type === 'solo_endorsement' ? 'Complete and issue the solo' : 'Complete' },
          { value: 'declined', text: 'Decline' },
        ])
      : t.creator_id === c.viewer
        ? closeForm([{ value: 'withdrawn', text: 'Withdraw' }])
        : '';
  const training =
    c.linkTraining && t.training_id !== null ? html` · <a href="/staff/trainings/${t.training_id}">training ${t.training_id}</a>` : '';
  // prettier-ignore
  return html`<li class="card task" id="task-${t.id}">
<p><strong>${taskTitle(t)}</strong> for <a href="/staff/users/${t.subject_user_id}">${name(t.subject_user_id)}</a>${training}</p>
<p class="when">${STATUS_TEXT[t.status]} · from ${name(t.creator_id)} to ${name(t.assignee_id)} · sent ${utcText(t.created_at)}${t.closed_at === null ? '' : ` · closed ${utcText(t.closed_at)}`}</p>
${t.message ? html`<p class="report-text">${t.message}</p>` : ''}
${t.closed_message ? html`<p class="report-text">Reply: ${t.closed_message}</p>` : ''}
${hubLine(t, c)}
${forms}</li>`;
}

/** What the division's hub made of the request the task's completion caused; "Send again" beside a refusal for its assignee or creator. */
function hubLine(t: TaskRow, c: ItemContext): Html | '' {
  if (t.division_api_state === null) return '';
  if (t.division_api_state === 'pending') return html`<p class="hint">Being sent to the division's hub.</p>`;
  if (t.division_api_state === 'sent') return html`<p class="hint">Sent to the division's hub.</p>`;
  const involved = t.assignee_id === c.viewer || t.creator_id === c.viewer;
  // prettier-ignore
  return html`<p class="error" id="task-${t.id}-hub">The division's hub refused it: ${t.division_api_error ?? 'no reason given'}</p>
${involved ? html`<form method="post" action="/staff/tasks/${t.id}/hub-retry" class="inline">${c.csrf}<button type="submit" class="secondary" aria-describedby="task-${t.id}-hub">Send again</button></form>` : ''}`;
}
