// What the staff positions page (./staff.routes.ts) takes, page forms of the atoms every page shares
// (src/core/web/form-atoms.ts).
import { Csrf, Field, pageForm, TextPath } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;

/** A callsign in a path: one that names no position gets a 404. */
const CallsignPath = TextPath('callsign');

export const staffPositionsPage = { ...hidden, querystring: pageForm({ done: Field() }) };
const PositionFields = { name: Field(), frequency: Field(), area: Field(), rating: Field(), required_facility: Field(), _csrf: Csrf };
export const addPositionForm = { ...hidden, body: pageForm({ callsign: Field(), ...PositionFields }) };
export const changePositionForm = { ...hidden, params: CallsignPath, body: pageForm(PositionFields) };
export const removePositionForm = { ...hidden, params: CallsignPath, body: pageForm({ _csrf: Csrf }) };
