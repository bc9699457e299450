// GET /my/settings (contract §24): which mail the member gets, the look of the pages, and their data.
import type { FieldErrors } from '../../../core/domain/errors.js';
import { html } from '../../../core/web/html.js';
import { described, fieldError, frame, type PageFrame } from '../../bookings/index.js';
import { LOOK_LABELS, LOOKS, MAIL_KIND_LABELS, MAIL_KINDS, type MemberSettings } from '../../notices/index.js';

export interface SettingsView extends PageFrame {
  settings: MemberSettings;
  errors: FieldErrors;
  saved: boolean;
}

const checked = (on: boolean) => (on ? html` checked` : '');

export function settingsPage(v: SettingsView): Buffer {
  const { settings, errors } = v;
  // prettier-ignore
  const main = html`${v.saved ? html`<p class="notice" role="status">Your settings are saved.</p>` : ''}
${Object.keys(errors).length > 0 ? html`<p class="error" role="alert">Your settings were not saved: see the messages below.</p>` : ''}
<form method="post" action="/my/settings">${v.csrf}
<fieldset><legend>E-mail</legend>
<p class="hint" id="mail-hint">Choose which mail you get. The request to confirm you still want your training is always sent: without an answer the training would be closed.</p>
${MAIL_KINDS.map((k) => html`<div><input type="checkbox" id="mail-${k}" name="mail" value="${k}"${checked(settings.mail[k])}${described('mail', errors, 'mail-hint')} /> <label for="mail-${k}">${MAIL_KIND_LABELS[k]}</label></div>`)}
${fieldError('mail', errors)}</fieldset>
<fieldset><legend>Look of the pages</legend>
${LOOKS.map((l) => html`<div><input type="radio" id="look-${l}" name="look" value="${l}"${checked(settings.look === l)}${described('look', errors)} /> <label for="look-${l}">${LOOK_LABELS[l]}</label></div>`)}
${fieldError('look', errors)}</fieldset>
<p><button type="submit">Save settings</button></p>
</form>
<h2>Your data</h2>
<p>Download everything this site holds about you as one JSON file: <a href="/my/data" download>Download my data</a>.</p>
<p>To have your data erased, ask the division’s staff.</p>`;
  return frame(v, 'Settings', main);
}
