// GET /feedback (a member sends feedback) and GET /staff/feedback (staff read and handle it), contract §23.
import type { PageFrame } from '../../bookings/index.js';
import { frame } from '../../bookings/index.js';
import { personName } from '../../members/domain/names.js';
import { TEXT_MAX } from '../domain.js';
import type { StaffFeedback } from '../feedback.service.js';
import { type Html, html } from '../../../core/web/html.js';
import { empty, field, formAction, type FormState, formError, staffPage, type StaffFrame, utcText, valueOf } from '../../roles/index.js';

export function feedbackPage(p: PageFrame & { state: FormState; notice: string | null }): Buffer {
  const { state } = p;
  const v = (n: string) => valueOf(state, 'feedback', n);
  const control = {
    controller: (id: string, aria: Html) =>
      html`<input type="text" inputmode="numeric" id="${id}" name="controller" value="${v('controller')}" ${aria} />`,
    position: (id: string, aria: Html) => html`<input type="text" id="${id}" name="position" value="${v('position')}" ${aria} />`,
    text: (id: string, aria: Html) =>
      html`<textarea id="${id}" name="text" rows="8" maxlength="${TEXT_MAX}" ${aria}>${v('text')}</textarea>`,
  };
  const f = (name: keyof typeof control, label: string, hint: string) =>
    field({ form: 'feedback', name, label, state, hint, control: control[name] });
  // prettier-ignore
  const main = html`${p.notice ? html`<p class="notice" role="status">${p.notice}</p>` : ''}<p>Tell the division's staff about a controller or a session. Staff decide what to pass on; the controller does not see who sent it.</p>
<form method="post" action="${formAction('/feedback', 'feedback')}" class="staff-form" novalidate>${p.csrf}
${formError(state, 'feedback', ['controller', 'position', 'text'])}
${f('controller', "Controller's CID", 'Optional')}${f('position', 'Position', 'Optional: a callsign of the division, such as EKCH_TWR')}${f('text', 'Feedback', `1 to ${TEXT_MAX} characters`)}
<div class="actions"><button type="submit">Send feedback</button></div></form>`;
  return frame(p, 'Feedback', main);
}

export interface StaffFeedbackPage extends StaffFrame, StaffFeedback {
  state: FormState;
  notice: string | null;
}

function item(p: StaffFeedbackPage, f: StaffFeedback['items'][number]): Html {
  const form = `feedback-${f.id}`;
  const { state } = p;
  const comments = p.comments.filter((c) => c.feedback_id === f.id);
  const about = html`${f.controller === null ? 'No controller named' : `About ${personName(p.names, f.controller)}`} ·
  ${f.callsign === null ? 'no position' : `${f.callsign}${f.area ? ` (${f.area})` : ''}`}`;
  const control = {
    controller: (id: string, aria: Html) =>
      html`<input
        type="text"
        inputmode="numeric"
        id="${id}"
        name="controller"
        value="${valueOf(state, form, 'controller', f.controller === null ? '' : String(f.controller))}"
        ${aria}
      />`,
    position: (id: string, aria: Html) =>
      html`<input type="text" id="${id}" name="position" value="${valueOf(state, form, 'position', f.callsign ?? '')}" ${aria} />`,
    comment: (id: string, aria: Html) =>
      html`<textarea id="${id}" name="comment" rows="2" ${aria}>${valueOf(state, form, 'comment')}</textarea>`,
  };
  // prettier-ignore
  return html`<li><h3>Feedback ${f.id} <span class="hint">${utcText(f.created_at)}${f.actioned === 1 ? ' · actioned' : ''}</span></h3>
<p>${about}</p><p>From ${personName(p.names, f.sender_id)}</p><blockquote>${f.text}</blockquote>
${comments.length === 0 ? '' : html`<h4>Internal comments</h4><ul>${comments.map((c) => html`<li>${personName(p.names, c.author_id)}, ${utcText(c.created_at)}: ${c.text}</li>`)}</ul>`}
<form method="post" action="/staff/feedback/${f.id}/actioned" class="inline">${p.csrf}${f.actioned === 1 ? '' : html`<input type="hidden" name="actioned" value="1" />`}<button type="submit" class="secondary">${f.actioned === 1 ? 'Mark not actioned' : 'Mark actioned'}</button></form>
<details${Object.keys(state.form === form ? state.errors : {}).length > 0 ? html` open` : ''}><summary>Correct or comment</summary>
<form method="post" action="${formAction(`/staff/feedback/${f.id}`, form)}" class="staff-form" novalidate>${p.csrf}${formError(state, form, ['controller', 'position', 'comment'])}
${field({ form, name: 'controller', label: "Controller's CID", state, control: control.controller })}${field({ form, name: 'position', label: 'Position', state, control: control.position })}
<div class="actions"><button type="submit">Save correction</button></div></form>
<form method="post" action="${formAction(`/staff/feedback/${f.id}/comments`, form)}" class="staff-form" novalidate>${p.csrf}
${field({ form, name: 'comment', label: 'Internal comment', state, control: control.comment })}<div class="actions"><button type="submit">Add comment</button></div></form></details></li>`;
}

export function staffFeedbackPage(p: StaffFeedbackPage): Buffer {
  // prettier-ignore
  const main = html`<p>Feedback on the positions of your areas, and feedback naming no position. Only this page shows who sent it; decide what to pass on to the controller.</p>
<section aria-labelledby="feedback-title"><h2 id="feedback-title">Received</h2>${p.items.length === 0 ? empty('No feedback.') : html`<ul class="reports">${p.items.map((f) => item(p, f))}</ul>`}</section>`;
  return staffPage(p, 'Feedback', main, p.notice);
}
