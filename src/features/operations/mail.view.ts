// The mails students get about their training (contract §18): a plain-text and an HTML part of
// the same words. Names and other values from outside go into the body only (escaped in the HTML
// part), never into a header.
import type { NewMail } from '../../core/mail.repository.js';
import { html } from '../../core/web/html.js';

export type TrainingMailKind = 'created' | 'status' | 'mentor' | 'report' | 'examination' | 'interest';

export interface TrainingMail {
  kind: TrainingMailKind;
  to: string;
  siteName: string;
  /** Sector's public address, for the link to the student's page. */
  publicUrl: string;
  firstName: string | null;
  area: string;
  /** What the mail says happened, one sentence each. */
  lines: readonly string[];
}

const SUBJECTS: Record<TrainingMailKind, string> = {
  created: 'Your training request',
  status: 'Your training has a new status',
  mentor: 'Your training has a mentor',
  report: 'A new training report',
  examination: 'Your examination',
  interest: 'Please confirm you still want your training',
};

export function trainingMail(m: TrainingMail): NewMail {
  const link = `${m.publicUrl}/my/training`;
  // A name is one line of text: line breaks and other control characters become spaces.
  const name = m.firstName?.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  const greeting = `Hello${name ? ` ${name}` : ''},`;
  const action =
    m.kind === 'interest' ? 'Confirm on your training page within 14 days, or the request is closed:' : 'See your training page:';
  const settings = `${m.publicUrl}/my/settings`;
  // Why it was sent (contract §24): the interest request is the one mail a member cannot turn off.
  const why =
    m.kind === 'interest'
      ? 'You get this whatever your settings: without an answer the training would be closed unseen.'
      : 'You get this because mail about your training is on in your settings.';
  const text = [
    greeting,
    '',
    `Your ${m.area} training.`,
    ...m.lines,
    '',
    action,
    link,
    '',
    `${why} Your settings: ${settings}`,
    '',
    `— ${m.siteName}`,
  ].join('\n');
  const body = html`<!doctype html>
    <html lang="en">
      <body>
        <p>${greeting}</p>
        <p>Your ${m.area} training.</p>
        ${m.lines.map((l) => html`<p>${l}</p>`)}
        <p>${action} <a href="${link}">${link}</a></p>
        <p>${why} Your settings: <a href="${settings}">${settings}</a></p>
        <p>— ${m.siteName}</p>
      </body>
    </html>`;
  return { to_address: m.to, subject: `${m.siteName}: ${SUBJECTS[m.kind]}`, text_body: text, html_body: body.toString() };
}

export interface ExaminerMail {
  to: string;
  siteName: string;
  publicUrl: string;
  firstName: string | null;
  /** "Examination planned", "Examination moved", … */
  subject: string;
  /** What happened, one sentence each. */
  lines: readonly string[];
  /** Where the mail points, and the sentence before the link (default: the member's page, for examiners). */
  link?: { path: string; action: string };
  /** Why the mail was sent (default: mail about training is on). */
  why?: string;
}

/** The mail an examiner gets when an examination they examine is planned, moved or cancelled (contract §20); also a staff member's about a task (§21). */
export function examinerMail(m: ExaminerMail): NewMail {
  const link = `${m.publicUrl}${m.link?.path ?? '/my'}`;
  const name = m.firstName?.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  const greeting = `Hello${name ? ` ${name}` : ''},`;
  const action = m.link?.action ?? 'Your examinations are listed on your page:';
  const settings = `${m.publicUrl}/my/settings`;
  const why = m.why ?? 'You get this because mail about training is on in your settings.';
  const text = [greeting, '', ...m.lines, '', action, link, '', `${why} Your settings: ${settings}`, '', `— ${m.siteName}`].join('\n');
  const body = html`<!doctype html>
    <html lang="en">
      <body>
        <p>${greeting}</p>
        ${m.lines.map((l) => html`<p>${l}</p>`)}
        <p>${action} <a href="${link}">${link}</a></p>
        <p>${why} Your settings: <a href="${settings}">${settings}</a></p>
        <p>— ${m.siteName}</p>
      </body>
    </html>`;
  return { to_address: m.to, subject: `${m.siteName}: ${m.subject}`, text_body: text, html_body: body.toString() };
}
