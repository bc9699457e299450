// A notification mail (contract §24) in the one mail layout (src/core/mail.view.ts): it names the
// division, says what happened and why it was sent, and links the member's settings.
import type { NewMail } from '../../core/mail.repository.js';
import { memberMail } from '../../core/mail.view.js';

export interface NoticeMail {
  to: string;
  siteName: string;
  publicUrl: string;
  firstName: string | null;
  /** "Your solo endorsement ends in 3 days", … (after the division's name). */
  subject: string;
  /** What happened, one sentence each. */
  lines: readonly string[];
  /** Why this mail was sent (the kind's reason). */
  why: string;
  /** Where to act, when there is a page for it: a path of the site and what it is. */
  link?: { path: string; text: string };
}

export function noticeMail(m: NoticeMail): NewMail {
  const { link, ...rest } = m;
  return memberMail({ ...rest, ...(link ? { link: { path: link.path, before: `${link.text}:` } } : {}) });
}
