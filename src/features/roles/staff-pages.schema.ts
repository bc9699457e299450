// What the staff pages (contract §17, src/routes/staff) take: path parameters, queries and form
// fields, declared as the other pages' are (src/core/web/page-schemas.ts): a field may come more than once.
import { Type } from 'typebox';

const Field = Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 50 })]);
const hidden = { hide: true } as const;
const Csrf = { _csrf: Type.Optional(Field) };
const Done = Type.Object({ done: Type.Optional(Field) });

/** A CID, an endorsement id or a callsign in a path: anything that is not one gets a 404. */
const CidPath = Type.Object({ cid: Type.String({ maxLength: 40 }) });
const IdPath = Type.Object({ id: Type.String({ maxLength: 40 }) });
const CallsignPath = Type.Object({ callsign: Type.String({ maxLength: 60 }) });

export const staffOverviewPage = { ...hidden };
export const staffSearchPage = { ...hidden, querystring: Type.Object({ q: Type.Optional(Field) }) };
export const staffPersonPage = { ...hidden, params: CidPath, querystring: Done };
export const staffEndorsementsPage = { ...hidden, querystring: Type.Object({ type: Type.Optional(Field), area: Type.Optional(Field) }) };
export const staffPositionsPage = { ...hidden, querystring: Done };

export const issueEndorsementForm = {
  ...hidden,
  params: CidPath,
  body: Type.Object({
    type: Type.Optional(Field),
    rating: Type.Optional(Field),
    areas: Type.Optional(Field),
    positions: Type.Optional(Field),
    valid_to: Type.Optional(Field),
    ...Csrf,
  }),
};
export const endorsementEndForm = { ...hidden, params: IdPath, body: Type.Object({ valid_to: Type.Optional(Field), ...Csrf }) };
export const endorsementRevokeForm = { ...hidden, params: IdPath, body: Type.Object({ ...Csrf }) };
export const roleForm = {
  ...hidden,
  params: CidPath,
  body: Type.Object({ role: Type.Optional(Field), area: Type.Optional(Field), ...Csrf }),
};

const PositionFields = {
  name: Type.Optional(Field),
  frequency: Type.Optional(Field),
  area: Type.Optional(Field),
  rating: Type.Optional(Field),
  required_facility: Type.Optional(Field),
  ...Csrf,
};
export const addPositionForm = { ...hidden, body: Type.Object({ callsign: Type.Optional(Field), ...PositionFields }) };
export const changePositionForm = { ...hidden, params: CallsignPath, body: Type.Object(PositionFields) };
export const removePositionForm = { ...hidden, params: CallsignPath, body: Type.Object({ ...Csrf }) };
