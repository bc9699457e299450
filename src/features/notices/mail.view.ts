// A notification mail (contract §24): it names the division, says what happened and why it was
// sent, and links the member's settings. Plain text and HTML of the same words; values from outside
// go into the body only (escaped in the HTML part), never into a header.
import type { NewMail } from '../../core/mail.repository.js';
import { html } from '../../core/web/html.js';

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
  const settings = `${m.publicUrl}/my/settings`;
  const link = m.link && { href: `${m.publicUrl}${m.link.path}`, text: m.link.text };
  const name = m.firstName?.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  const greeting = `Hello${name ? ` ${name}` : ''},`;
  const text = [
    greeting,
    '',
    ...m.lines,
    ...(link ? ['', `${link.text}:`, link.href] : []),
    '',
    `${m.why} Change which mail you get: ${settings}`,
    '',
    `— ${m.siteName}`,
  ].join('\n');
  const body = html`<!doctype html>
    <html lang="en">
      <body>
        <p>${greeting}</p>
        ${m.lines.map((l) => html`<p>${l}</p>`)} ${link ? html`<p>${link.text}: <a href="${link.href}">${link.href}</a></p>` : ''}
        <p>${m.why} Change which mail you get: <a href="${settings}">${settings}</a></p>
        <p>— ${m.siteName}</p>
      </body>
    </html>`;
  return { to_address: m.to, subject: `${m.siteName}: ${m.subject}`, text_body: text, html_body: body.toString() };
}
