// The staff pages' frame and form parts (contract §17, docs/staff.md): the members' pages' look,
// a row of staff links, and fields that show their error beside them. One page may hold several
// forms: a FormState names the form it belongs to, so only that form shows its values and errors.
import type { FieldErrors } from '../../core/domain/errors.js';
import { type Html, html, type HtmlValue } from '../../core/web/html.js';
import { type AccountView, accountBar, pageHead } from '../../core/web/page-frame.js';
import type { PageAssets } from '../../core/web/page-assets.js';

export interface StaffFrame {
  siteName: string;
  assets: PageAssets;
  account: AccountView;
  /** The hidden CSRF input for the page's forms. */
  csrf: Html;
  /** Whether the viewer manages positions somewhere (the "Positions" link). */
  managesPositions: boolean;
  /** Whether the viewer holds Mentor or mentors someone (the "My students" link). */
  mentors?: boolean;
  /** Whether the viewer keeps report templates somewhere (the "Report templates" link, §20). */
  keepsTemplates?: boolean;
  /** Whether the viewer is a division-wide Administrator (the "Votes" link, §23). */
  keepsVotes?: boolean;
  /** Whether the viewer reads feedback (Moderator or Administrator somewhere: the "Feedback" link, §23). */
  readsFeedback?: boolean;
  /** Whether the viewer may read the reports of some area (the "Reports" link, §25). */
  readsReports?: boolean;
  /** Whether the viewer may read the audit log (the "Audit log" link, §25). */
  readsAudit?: boolean;
}

/** A posted form shown again: which form, what was sent, what was wrong (by field; `form` for the whole form). */
export interface FormState {
  form: string;
  values: Record<string, string | undefined>;
  errors: FieldErrors;
}

export const NO_FORM: FormState = { form: '', values: {}, errors: {} };

export const utcText = (ms: number | null): string =>
  ms === null ? 'no end' : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
/** An API timestamp ("…T…Z", microseconds) as "2026-03-10 12:00 UTC"; null as "no end". */
export const isoText = (iso: string | null): string => (iso === null ? 'no end' : `${iso.slice(0, 16).replace('T', ' ')} UTC`);
export const dateOf = (iso: string | null): string => (iso === null ? '' : iso.slice(0, 10));

export function staffPage(f: StaffFrame, title: string, main: Html, notice: string | null = null): Buffer {
  const links = [
    { href: '/staff', text: 'Overview' },
    ...(f.mentors ? [{ href: '/staff/students', text: 'My students' }] : []),
    { href: '/staff/users', text: 'People' },
    { href: '/staff/endorsements', text: 'Endorsements' },
    { href: '/staff/trainings', text: 'Trainings' },
    { href: '/staff/exams', text: 'Examinations' },
    { href: '/staff/tasks', text: 'Tasks' },
    ...(f.managesPositions ? [{ href: '/staff/positions', text: 'Positions' }] : []),
    ...(f.keepsTemplates ? [{ href: '/staff/templates', text: 'Report templates' }] : []),
    { href: '/staff/sweatbox', text: 'Sweatbox' },
    ...(f.readsFeedback ? [{ href: '/staff/feedback', text: 'Feedback' }] : []),
    ...(f.keepsVotes ? [{ href: '/staff/votes', text: 'Votes' }] : []),
    ...(f.readsReports ? [{ href: '/staff/reports/trainings', text: 'Reports' }] : []),
    ...(f.readsAudit ? [{ href: '/staff/audit', text: 'Audit log' }] : []),
  ];
  const body = html`<!doctype html>
    <html lang="en">
      ${pageHead(title, f.siteName, f.assets)}
      <body class="staff">
        <header class="site">
          <p class="site-name"><a href="/">${f.siteName}</a></p>
          ${accountBar(f.account)}
        </header>
        <nav class="staff-nav" aria-label="Staff">
          <ul>
            ${links.map((l) => html`<li><a href="${l.href}">${l.text}</a></li>`)}
          </ul>
        </nav>
        <main>
          <h1>${title}</h1>
          ${notice === null ? '' : html`<p class="notice" role="status">${notice}</p>`} ${main}
        </main>
        <footer>
          <p><a href="/">Schedule</a> · <a href="/my">My page</a> · <a href="/my/bookings">My bookings</a> · <a href="/staff">Staff</a></p>
        </footer>
      </body>
    </html> `;
  return Buffer.from(body.toString());
}

/** The state's errors when it is this form's, else none. */
export const errorsOf = (state: FormState, form: string): FieldErrors => (state.form === form ? state.errors : {});
/** The value sent for a field when the state is this form's, else the given default. */
export const valueOf = (state: FormState, form: string, field: string, fallback = ''): string =>
  state.form === form ? (state.values[field] ?? '') : fallback;

/**
 * A form's action. Its fragment names the form's message (formError): a refused form comes back
 * scrolled to it, wherever the form is on the page; the redirect after a success leaves it unmatched.
 */
export const formAction = (path: string, form: string): string => `${path}#${form}-problem`;

/** A form's error that belongs to no field of it (a conflict, an unknown user), above the fields. */
export function formError(state: FormState, form: string, fields: readonly string[]): Html | '' {
  const errors = errorsOf(state, form);
  const other = Object.entries(errors).filter(([f]) => !fields.includes(f));
  if (Object.keys(errors).length === 0) return '';
  return html`<p class="error" role="alert" id="${form}-problem">
    Nothing was changed${other.length > 0 ? html`: ${other.map(([, m]) => m.join(' ')).join(' ')}` : ': see the messages below.'}
  </p>`;
}

interface FieldOptions {
  form: string;
  name: string;
  label: string;
  state: FormState;
  hint?: string;
  /** Builds the control from its id and its aria attributes. */
  control: (id: string, aria: Html) => HtmlValue;
}

/** A labelled control with its hint and, when the form was sent back, its error beside it. */
export function field(o: FieldOptions): Html {
  const id = `${o.form}-${o.name}`;
  const messages = errorsOf(o.state, o.form)[o.name];
  const described = [o.hint ? `${id}-hint` : null, messages ? `${id}-error` : null].filter((s) => s !== null);
  const aria = html`${described.length > 0 ? html` aria-describedby="${described.join(' ')}"` : ''}${messages ? html` aria-invalid="true"` : ''}`;
  return html`<div class="field">
    <label for="${id}">${o.label}</label>${o.control(id, aria)}${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}${
      messages ? html`<p class="error" id="${id}-error">${messages.join(' ')}</p>` : ''
    }
  </div>`;
}

export function options(values: ReadonlyArray<string | { value: string; text: string }>, selected: string): Html[] {
  return values.map((v) => {
    const o = typeof v === 'string' ? { value: v, text: v } : v;
    return html`<option value="${o.value}" ${o.value === selected ? html` selected` : ''}>${o.text}</option>`;
  });
}

export const empty = (text: string): Html => html`<p class="none">${text}</p>`;

export type { Named } from './domain.js';
