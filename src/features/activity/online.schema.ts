import { type Static, Type } from 'typebox';
import { ErrorBody } from '../../core/web/schema-atoms.js';

export const OnlineItem = Type.Object(
  {
    callsign: Type.String({ examples: ['EKCH_A_TWR'], description: 'The callsign the controller is connected with' }),
    position: Type.String({ examples: ['EKCH_TWR'], description: 'The division position it staffs' }),
    frequency: Type.String({ examples: ['118.105'], description: 'MHz, as the network shows it' }),
    since: Type.String({ format: 'date-time', examples: ['2026-11-25T09:30:00.000000Z'], description: 'When the controller connected' }),
    cid: Type.Optional(Type.Integer({ examples: [1000001], description: 'With an API key only' })),
    name: Type.Optional(Type.String({ examples: ['Ada Lind'], description: 'With an API key only' })),
  },
  { additionalProperties: false },
);
export type OnlineItem = Static<typeof OnlineItem>;

export const OnlineList = Type.Object({ data: Type.Array(OnlineItem) }, { additionalProperties: false });
export type OnlineList = Static<typeof OnlineList>;

export const listOnline = {
  tags: ['positions'],
  operationId: 'listOnline',
  summary: 'Who is online',
  description:
    "The division's positions staffed now, from the network's data feed, sorted by position then callsign. Public; with an API key each item adds the controller's `cid` and `name`.",
  response: {
    200: OnlineList,
    401: ErrorBody,
    429: ErrorBody,
  },
};
