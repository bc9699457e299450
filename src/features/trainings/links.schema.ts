// What the one-time link pages take (contract §20): the staff form that makes a link, and the
// holder's report form. A token in a path is text; one that names no usable link is the 410 page.
import { Csrf, Field, IdPath, pageForm, Prose, TextPath } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;

export const createLinkForm = {
  ...hidden,
  params: IdPath('id'),
  body: pageForm({ kind: Field(), _csrf: Csrf }),
};

const LinkPath = TextPath('token');
export const linkPage = { ...hidden, params: LinkPath };
export const linkReportForm = {
  ...hidden,
  params: LinkPath,
  body: pageForm({ report_date: Field(), position: Field(), content: Prose(), improve: Prose(), _csrf: Csrf }),
};
