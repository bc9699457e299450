// The sweatbox's API answers and page forms (contract §23).
import { type Static, Type } from 'typebox';
import { ERROR_MESSAGE, ErrorBody, ValidationErrorBody } from '../../core/web/schema-atoms.js';
import { Csrf, Field, IdPath, pageForm } from '../../core/web/form-atoms.js';

const tags = ['sweatbox'];
// The bookings list's window bounds (a format the validator knows: src/features/bookings/formats.ts).
const bound = (edge: 'from' | 'to', description: string) =>
  Type.Optional(
    Type.String({
      format: 'window-bound',
      [ERROR_MESSAGE]: `The ${edge} field must be an ISO 8601 date (2026-02-01) or date-time (2026-02-01T10:00:00Z).`,
      description,
    }),
  );

export const SweatboxSession = Type.Object(
  {
    id: Type.Integer(),
    callsign: Type.String({ examples: ['EKCH_TWR'] }),
    time_start: Type.String({ description: 'Y-m-d H:i:s, UTC', examples: ['2026-03-10 18:00:00'] }),
    time_end: Type.String({ description: 'Y-m-d H:i:s, UTC', examples: ['2026-03-10 20:00:00'] }),
    notes: Type.String({ maxLength: 255 }),
    user_id: Type.Integer({ description: 'CID of the booker' }),
  },
  { additionalProperties: false },
);
export type SweatboxSession = Static<typeof SweatboxSession>;

export const SweatboxQuery = Type.Object({
  from: bound('from', 'Only sessions that end after this time (an ISO date or date-time; default: now)'),
  to: bound('to', 'Only sessions that start before this time (an ISO date meaning the end of that day, or a date-time)'),
});

export const listSweatbox = {
  operationId: 'listSweatboxSessions',
  tags,
  summary: 'Sweatbox sessions',
  description: 'Sessions on the training server, by start. Never pushed to the network and never on the public schedule.',
  querystring: SweatboxQuery,
  response: {
    200: Type.Object({ data: Type.Array(SweatboxSession) }, { additionalProperties: false }),
    400: ErrorBody,
    401: ErrorBody,
    422: ValidationErrorBody,
    429: ErrorBody,
  },
};

const hidden = { hide: true } as const;
const SessionForm = pageForm({ position: Field(), date: Field(), start: Field(), end: Field(), notes: Field(), _csrf: Csrf });
export const sweatboxPage = { ...hidden, querystring: pageForm({ done: Field() }) };
export const createSessionForm = { ...hidden, body: SessionForm };
export const sessionPage = { ...hidden, params: IdPath() };
export const updateSessionForm = { ...hidden, params: IdPath(), body: SessionForm };
export const deleteSessionForm = { ...hidden, params: IdPath(), body: pageForm({ _csrf: Csrf }) };
