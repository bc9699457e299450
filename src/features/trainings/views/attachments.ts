// The files of a report or an examination on the training pages (contract §20): a list with each
// file's name (a download link), size and type; for staff also whether it is hidden, a remove
// button for who may remove it, and an upload form for who may add one. An upload's form carries
// its CSRF token in its action URL, so the token is checked before the file is read.
import type { Attachment } from '../attachments.schema.js';
import { ATTACHMENT_BYTES_MAX, ATTACHMENTS_MAX, sizeText } from '../attachments.domain.js';
import { type Html, html } from '../../../core/web/html.js';
import { errorsOf, field, formAction, type FormState } from '../../roles/index.js';

const KIND = { pdf: 'PDF', png: 'PNG image', jpeg: 'JPEG image', plain: 'text' } as const;
const kindOf = (type: string): string => (KIND as Record<string, string | undefined>)[type.slice(type.indexOf('/') + 1)] ?? type;

/** The files as links to where the viewer downloads them ("/staff/attachments" or "/my/attachments"). */
export function attachmentList(files: readonly Attachment[], base: string, remove?: (a: Attachment) => Html | ''): Html | '' {
  if (files.length === 0) return '';
  // prettier-ignore
  return html`<ul class="attachments" aria-label="Files">${files.map((a) => html`<li><a href="${base}/${a.id}" download>${a.name}</a> <span class="hint">(${kindOf(a.type)}, ${sizeText(a.size)})</span>${a.hidden ? html` <span class="flag">Staff only</span>` : ''}${remove ? remove(a) : ''}</li>`)}</ul>`;
}

export interface StaffFiles {
  /** The token for the upload forms' URLs. */
  csrfToken: string;
  /** The hidden CSRF input of the remove forms. */
  csrf: Html;
  state: FormState;
  /** Whether the viewer may add files to this record. */
  mayUpload: (kind: 'report' | 'examination', id: number) => boolean;
  /** The files the viewer may remove. */
  removable: ReadonlySet<number>;
}

/** The form's name on the page: one upload form per record. */
export const uploadFormName = (kind: 'report' | 'examination', id: number) => `file-${kind}-${id}`;

/** A record's files on the staff training page, with the remove buttons and the upload form the viewer may use. */
export function staffFiles(
  f: StaffFiles,
  trainingId: number,
  kind: 'report' | 'examination',
  id: number,
  files: readonly Attachment[],
): Html {
  const remove = (a: Attachment) =>
    f.removable.has(a.id)
      ? html` <form method="post" action="/staff/attachments/${a.id}/remove" class="inline">
          ${f.csrf}<button type="submit" class="secondary" aria-label="Remove ${a.name}">Remove</button>
        </form>`
      : '';
  const form = uploadFormName(kind, id);
  const room = files.length < ATTACHMENTS_MAX;
  const errors = errorsOf(f.state, form);
  const action = `/staff/trainings/${trainingId}/${kind === 'report' ? 'reports' : 'examinations'}/${id}/attachments?_csrf=${encodeURIComponent(f.csrfToken)}`;
  const file = (fid: string, aria: Html) =>
    html`<input
      type="file"
      id="${fid}"
      name="file"
      accept=".pdf,.png,.jpg,.jpeg,.txt,application/pdf,image/png,image/jpeg,text/plain"
      required
      ${aria}
    />`;
  // prettier-ignore
  const problem = errors.form ? html`<p class="error" role="alert" id="${form}-problem">Nothing was changed: ${errors.form.join(' ')}</p>` : '';
  const upload = !f.mayUpload(kind, id)
    ? ''
    : !room
      ? html`${problem}
          <p class="hint">${ATTACHMENTS_MAX} files: remove one to add another.</p>`
      : html`<form method="post" enctype="multipart/form-data" action="${formAction(action, form)}" class="staff-form attach" novalidate>
          ${problem}
          ${field({ form, name: 'file', label: 'Add a file', state: f.state, hint: `PDF, PNG, JPEG or plain text, up to ${ATTACHMENT_BYTES_MAX / 1024 / 1024} MB; ${ATTACHMENTS_MAX} files at most`, control: file })}
          <label class="check"><input type="checkbox" name="hidden" value="on" /> Staff only (hidden from the student)</label>
          <div class="actions"><button type="submit">Upload</button></div>
        </form>`;
  return html`${attachmentList(files, '/staff/attachments', remove)}${upload}`;
}
