// What the report pages and the audit page take (contract §25): queries only, each a page form of the
// atoms every page shares (src/core/web/form-atoms.ts); the routes read them as text and say what is wrong.
import { Field, pageForm } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;

/** `?area=` (blank: every area the viewer may read) and `?format=csv` for the same figures as CSV. */
export const reportPage = { ...hidden, querystring: pageForm({ area: Field({ maxLength: 200 }), format: Field({ maxLength: 10 }) }) };

/** `?booking=&actor=&from=&to=&page=`: blanks filter nothing. */
export const auditPage = {
  ...hidden,
  querystring: pageForm({ booking: Field(), actor: Field(), from: Field(), to: Field(), page: Field() }),
};
