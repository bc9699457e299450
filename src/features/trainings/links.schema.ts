// What the one-time link pages take (contract §20): the staff form that makes a link, and the
// holder's form (a report, or an examination's result). A token in a path is text; one that names no usable link is the 410 page.
import { Csrf, Field, IdPath, pageForm, Prose, TextPath } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;

export const createLinkForm = {
  ...hidden,
  params: IdPath('id'),
  body: pageForm({ kind: Field(), examination_id: Field(), _csrf: Csrf }),
};

const LinkPath = TextPath('token');
export const linkPage = { ...hidden, params: LinkPath, querystring: pageForm({ done: Field() }) };
/** A grading link's upload: the token in the path, the file and the CSRF token (in the URL) read by the route. */
export const linkFiles = { ...hidden, params: LinkPath };
export const linkReportForm = {
  ...hidden,
  params: LinkPath,
  // One form for both kinds: a report link reads the report's fields, a grading link the result.
  body: pageForm({ report_date: Field(), position: Field(), content: Prose(), improve: Prose(), result: Field(), _csrf: Csrf }),
};
