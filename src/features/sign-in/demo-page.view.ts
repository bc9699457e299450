// npm run demo: the demo sign-in page, a few demo people by role, each signed in as with one click
// (a form post, no script).
import { html } from '../../core/web/html.js';
import { type AccountView, csrfInput, memberFooter, pageHead, siteHeader } from '../../core/web/page-frame.js';

/** One person the demo sign-in offers. */
export interface DemoPerson {
  cid: number;
  name: string;
  rating: string;
  /** What they are in the demo: Student, Mentor, Moderator or Administrator. */
  kind: string;
  /** What they may try, in a few words. */
  tries: string;
}

export interface DemoSignInPage {
  siteName: string;
  assets: { css: string; icon: string };
  account: AccountView;
  people: DemoPerson[];
  /** The form token of this browser's demo sign-in. */
  token: string;
  /** Where to go after signing in (a path of this site). */
  next: string;
}

export function demoSignInPage(p: DemoSignInPage): Buffer {
  const title = 'Sign in as a demo person';
  const body = html`<!doctype html>
    <html lang="en">
      ${pageHead(title, p.siteName, p.assets)}
      <body>
        ${siteHeader(p.siteName, p.account)}
        <main>
          <h1>${title}</h1>
          <p>
            Members sign in with their network account on a real site. Here, pick someone of the demo division to see the pages as they do;
            the walk-through says what to try as each.
          </p>
          ${
            p.people.length === 0
              ? html`<p role="alert">The demo division holds nobody to sign in as.</p>`
              : html`<ul class="demo-people">
                  ${p.people.map(
                    (person) =>
                      html`<li>
                        <h2>${person.kind}</h2>
                        <p><strong>${person.name}</strong> (${person.cid}), ${person.rating}</p>
                        <p class="muted">${person.tries}</p>
                        <form method="post" action="/auth/demo">
                          ${csrfInput(p.token)}<input type="hidden" name="cid" value="${person.cid}" /><input
                            type="hidden"
                            name="next"
                            value="${p.next}"
                          /><button type="submit">Sign in as ${person.name} (${person.kind})</button>
                        </form>
                      </li>`,
                  )}
                </ul>`
          }
        </main>
        ${memberFooter(p.account)}
      </body>
    </html> `;
  return Buffer.from(body.toString());
}
