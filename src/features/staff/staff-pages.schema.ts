// What the staff pages (contract §17, ./staff.routes.ts, ./people.routes.ts) take: path parameters, queries and form
// fields, each a page form of the atoms every page shares (src/core/web/form-atoms.ts).
import { CheckboxList, Csrf, DateField, Field, IdPath, pageForm } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;

/** A CID or an endorsement id in a path: anything that is not one gets a 404. */
const CidPath = IdPath('cid');
const EndorsementPath = IdPath('id');

/** The last day of an endorsement: blank is no end. */
const LastDay = DateField({ blank: true, message: 'Give the last day as a date, YYYY-MM-DD.' });

export const staffOverviewPage = { ...hidden };
export const staffStudentsPage = { ...hidden };
export const staffSearchPage = { ...hidden, querystring: pageForm({ q: Field() }) };
// type, positions, valid_to: the issue form opened prefilled (a completed solo task's link, §21).
export const staffPersonPage = { ...hidden, params: CidPath, querystring: pageForm({ done: Field(), type: Field(), positions: Field() }) };
export const staffEndorsementsPage = { ...hidden, querystring: pageForm({ type: Field(), area: Field() }) };

export const issueEndorsementForm = {
  ...hidden,
  params: CidPath,
  body: pageForm({ type: Field(), rating: Field(), areas: CheckboxList(Field()), positions: Field(), valid_to: LastDay, _csrf: Csrf }),
};
export const endorsementEndForm = { ...hidden, params: EndorsementPath, body: pageForm({ valid_to: LastDay, _csrf: Csrf }) };
export const endorsementRevokeForm = { ...hidden, params: EndorsementPath, body: pageForm({ _csrf: Csrf }) };
export const roleForm = { ...hidden, params: CidPath, body: pageForm({ role: Field(), area: Field(), _csrf: Csrf }) };
