// The one layout of every mail to a member (contracts §18, §20, §21, §24): a greeting, what happened,
// where to act, why it was sent with the link to the settings, and the division's name — a plain-text
// and an HTML part of the same words. Values from outside go into the body only (escaped in the HTML
// part), never into a header; the subject is the caller's fixed words after the division's name.
import type { NewMail } from './mail.repository.js';
import { html } from './web/html.js';

export interface MemberMail {
  to: string;
  siteName: string;
  /** Sector's public address, for the links. */
  publicUrl: string;
  firstName: string | null;
  /** After the division's name: "Your examination", … */
  subject: string;
  /** What happened, one sentence each. */
  lines: readonly string[];
  /** Where to act: a path of the site and the words before its link ("See your training page:"). */
  link?: { path: string; before: string };
  /** Why this mail was sent (the kind's reason). */
  why: string;
}

export function memberMail(m: MemberMail): NewMail {
  const settings = `${m.publicUrl}/my/settings`;
  const link = m.link && { href: `${m.publicUrl}${m.link.path}`, before: m.link.before };
  // A name is one line of text: line breaks and other control characters become spaces.
  const name = m.firstName?.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  const greeting = `Hello${name ? ` ${name}` : ''},`;
  const text = [
    greeting,
    '',
    ...m.lines,
    ...(link ? ['', link.before, link.href] : []),
    '',
    `${m.why} Change which mail you get: ${settings}`,
    '',
    `— ${m.siteName}`,
  ].join('\n');
  const body = html`<!doctype html>
    <html lang="en">
      <body>
        <p>${greeting}</p>
        ${m.lines.map((l) => html`<p>${l}</p>`)} ${link ? html`<p>${link.before} <a href="${link.href}">${link.href}</a></p>` : ''}
        <p>${m.why} Change which mail you get: <a href="${settings}">${settings}</a></p>
        <p>— ${m.siteName}</p>
      </body>
    </html>`;
  return { to_address: m.to, subject: `${m.siteName}: ${m.subject}`, text_body: text, html_body: body.toString() };
}
