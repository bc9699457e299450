// What other features call, inside their Write, to mail members about something (contract §24):
// one statement for the keys already sent, one for who takes this kind of mail, one for the mails.
// A change that rolls back takes its keys and mail with it; one that commits is sent at least once.
import type { Write } from '../../app/deps.js';
import { MAIL_KIND_REASONS, type MailKind } from './domain.js';
import { noticeMail } from './mail.view.js';
import type { Recipient } from './notices.repository.js';

/** Where mail links point and how it is signed (the configuration's siteName and publicUrl). */
export interface NoticeSite {
  siteName: string;
  publicUrl: string;
}

export interface Notice {
  /** The member's CID. */
  to: number;
  /** Sent once per key (a restart or a second instance sends nothing again); none: every time. */
  key?: string;
  subject: string;
  /** What happened, one sentence each; may read the recipient (a mentor's mail says whose solo). */
  lines: readonly string[] | ((r: Recipient) => readonly string[]);
  link?: { path: string; text: string };
}

/**
 * Mails the members who take this kind of mail (and have an address); `always` for the one mail a
 * member cannot turn off (the continued-interest request). A notice's key is claimed whether or not
 * the member takes the mail, so turning a kind on later does not send old news. Returns the CIDs mailed.
 */
export async function sendNotices(
  w: Write,
  site: NoticeSite,
  kind: MailKind,
  notices: readonly Notice[],
  options: { always?: boolean } = {},
): Promise<number[]> {
  if (notices.length === 0) return [];
  const keyed = notices.filter((n) => n.key !== undefined);
  const claimed =
    keyed.length > 0
      ? await w.repos.notices.claim(
          keyed.map((n) => ({ key: n.key!, user_id: n.to })),
          w.at,
        )
      : new Set();
  const due = notices.filter((n) => n.key === undefined || claimed.has(n.key));
  if (due.length === 0 || !w.settings.mail) return [];
  const people = new Map(
    (
      await w.repos.notices.recipients(
        due.map((n) => n.to),
        kind,
        options.always,
      )
    ).map((r) => [r.id, r]),
  );
  const sent = due.flatMap((n) => {
    const r = people.get(n.to);
    return r ? [{ n, r }] : [];
  });
  await w.mail(
    sent.map(({ n, r }) =>
      noticeMail({
        ...site,
        to: r.email,
        firstName: r.first_name,
        subject: n.subject,
        lines: typeof n.lines === 'function' ? n.lines(r) : n.lines,
        why: MAIL_KIND_REASONS[kind],
        ...(n.link ? { link: n.link } : {}),
      }),
    ),
  );
  return sent.map(({ r }) => r.id);
}

/** Of these members, those who take mail of this kind (with an address): for a feature that writes its own mail. */
export async function mailableMembers(w: Write, cids: readonly number[], kind: MailKind, always = false): Promise<Recipient[]> {
  return cids.length === 0 ? [] : w.repos.notices.recipients(cids, kind, always);
}
