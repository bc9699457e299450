// The rules of files on reports and examinations (contract §20): which types are kept, how many,
// how large, who sees and removes them, and how a file's name is made safe to store and to send back.
import { rolesIn, type StaffMember } from '../roles/domain.js';

/** The types kept, each with the extension a downloaded file gets. */
export const ATTACHMENT_TYPES = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'text/plain': 'txt',
} as const;
export type AttachmentType = keyof typeof ATTACHMENT_TYPES;

export const isAttachmentType = (type: string): type is AttachmentType => Object.hasOwn(ATTACHMENT_TYPES, type);

/** What a file is added to: a report or an examination of a training. */
export type AttachmentTarget = { kind: 'report'; id: number } | { kind: 'examination'; id: number };

/** At most this many files on one report or one examination. */
export const ATTACHMENTS_MAX = 5;
/** Each file at most 10 MB. */
export const ATTACHMENT_BYTES_MAX = 10 * 1024 * 1024;
export const ATTACHMENT_NAME_MAX = 200;

export const REFUSED_TYPE = 'Only PDF, PNG and JPEG files and plain text (UTF-8) can be attached.';
export const TOO_LARGE = `A file can be at most ${ATTACHMENT_BYTES_MAX / 1024 / 1024} MB.`;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Plain text: valid UTF-8 without a NUL anywhere. */
export function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The name to keep: its last path segment (browsers on Windows may send a whole path), without
 * control characters, at most 200 characters, ending in the extension of the type found in the
 * content (a PNG sent as "form.pdf" is kept as "form.pdf.png"), so a downloaded file opens with
 * the program its content needs.
 */
export function attachmentName(sent: string, type: AttachmentType): string {
  const ext = ATTACHMENT_TYPES[type];
  const base = (sent.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '').trim();
  const has = base.toLowerCase().endsWith(`.${ext}`) || (type === 'image/jpeg' && /\.jpe?g$/i.test(base));
  const stem = base === '' ? 'attachment' : base;
  const suffix = has ? '' : `.${ext}`;
  return `${Array.from(stem)
    .slice(0, ATTACHMENT_NAME_MAX - suffix.length)
    .join('')}${suffix}`;
}

/** The size in words: "812 bytes", "34 KB", "2.1 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Whether staff may remove the file: its uploader, or a Moderator or Administrator of the area. */
export function mayRemove(staff: StaffMember, a: { uploader_id: number | null; area_id: number }): boolean {
  if (a.uploader_id === staff.cid) return true;
  const roles = rolesIn(staff, a.area_id);
  return roles.has('Moderator') || roles.has('Administrator');
}

/** The student sees the visible files of their published reports and graded examinations. */
export const studentSees = (
  cid: number,
  a: { user_id: number; hidden: number; report_id: number | null; draft: number | null; result: string | null },
): boolean => a.user_id === cid && a.hidden === 0 && (a.report_id !== null ? a.draft === 0 : a.result !== null);
