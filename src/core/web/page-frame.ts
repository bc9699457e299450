// What signing in adds to the pages: the account bar (sign in, or the member's name, sign out and
// links to their bookings) and the short page that says why a sign-in or a form was refused.
import { type Html, html } from './html.js';

/** What the account bar shows: sign-in off (null), signed out, or a member with their form token. */
export type AccountView =
  null | { member: null; signInHref: string } | { member: { name: string; cid: number; staff?: boolean }; csrfToken: string };

/** The name of the hidden field that carries a form's CSRF token. */
export const CSRF_FIELD = '_csrf';

export const csrfInput = (token: string): Html => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;

/** The account bar at the top of a page; nothing when sign-in is off. */
export function accountBar(view: AccountView): Html | '' {
  if (view === null) return '';
  if (view.member === null) {
    return html`<nav class="account" aria-label="Account"><a href="${view.signInHref}">Sign in</a></nav>`;
  }
  return html`<nav class="account" aria-label="Account">
    <span class="member">Signed in as <strong>${view.member.name}</strong> (${view.member.cid})</span>
    <a href="/my">My page</a>
    <a href="/bookings/new">Book a position</a>
    <a href="/my/bookings">My bookings</a>${view.member.staff ? html` <a href="/staff">Staff</a>` : ''}
    <form method="post" action="/auth/logout" class="sign-out">${csrfInput(view.csrfToken)}<button type="submit">Sign out</button></form>
  </nav>`;
}

/** The header of the members' pages: the site's name and the account bar. */
export const siteHeader = (siteName: string, account: AccountView): Html =>
  html`<header class="site">
    <p class="site-name"><a href="/">${siteName}</a></p>
    ${accountBar(account)}
  </header>`;

/** The footer of the members' pages: their pages when signed in, else the schedule only. */
export const memberFooter = (account: AccountView): Html =>
  html`<footer>
    <p>
      <a href="/">Schedule</a>${
        account?.member
          ? html` · <a href="/my">My page</a> · <a href="/bookings/new">Book a position</a> · <a href="/my/bookings">My bookings</a> ·
              <a href="/my/training">My training</a>`
          : ''
      }
    </p>
  </footer>`;

export interface MessagePage {
  siteName: string;
  /** The stylesheet and icon URLs (PageAssets). */
  assets: { css: string; icon: string };
  /** The account bar, as on the page the member came from. */
  account: AccountView;
  title: string;
  message: string;
  /** Where the member may go from here, e.g. "Try again". */
  links: ReadonlyArray<{ href: string; text: string }>;
}

/** The head of the members' pages: the schedule page's stylesheet and icon, no script. */
export function pageHead(title: string, siteName: string, assets: { css: string; icon: string }): Html {
  return html`<head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${title} — ${siteName}</title>
    <link rel="icon" href="${assets.icon}" type="image/svg+xml" />
    <link rel="stylesheet" href="${assets.css}" />
  </head>`;
}

/** A short page saying what happened (a refused sign-in, a refused form), in the members' header and footer. */
export function messagePage(page: MessagePage): Buffer {
  const body = html`<!doctype html>
    <html lang="en">
      ${pageHead(page.title, page.siteName, page.assets)}
      <body>
        ${siteHeader(page.siteName, page.account)}
        <main>
          <h1>${page.title}</h1>
          <p role="alert">${page.message}</p>
          <p class="actions">${page.links.map((l, i) => html`${i > 0 ? ' ' : ''}<a href="${l.href}">${l.text}</a>`)}</p>
        </main>
        ${memberFooter(page.account)}
      </body>
    </html> `;
  return Buffer.from(body.toString());
}
