// Notifications (contract §24): the kinds of mail a member turns on or off, and the one way other
// features mail members about something, once per key and only to those who take that kind.
import type { Feature } from '../../app/feature.js';

// What other features use of this one.
export {
  isLook,
  isMailKind,
  LOOK_LABELS,
  LOOKS,
  MAIL_DEFAULTS,
  MAIL_KIND_LABELS,
  MAIL_KINDS,
  type Look,
  type MailKind,
  type MemberSettings,
  settingsFrom,
} from './domain.js';
export { mailableMembers, type Notice, type NoticeSite, sendNotices } from './notices.js';
export { noticeMail } from './mail.view.js';
export type { Recipient } from './notices.repository.js';

export const notices: Feature = {};
