import { type Static, Type } from 'typebox';
import { ErrorBody } from './common.js';

export const Position = Type.Object(
  {
    callsign: Type.String({ examples: ['EKCH_TWR'] }),
    name: Type.String({ examples: ['Kastrup Tower'] }),
    frequency: Type.String({ pattern: '^\\d{3}\\.\\d{3}$', examples: ['118.105'], description: 'MHz, three decimals' }),
  },
  { additionalProperties: false },
);
export type Position = Static<typeof Position>;

export const PositionList = Type.Object({ data: Type.Array(Position) }, { additionalProperties: false });
export type PositionList = Static<typeof PositionList>;

export const listPositions = {
  operationId: 'listPositions',
  tags: ['positions'],
  summary: 'List positions',
  description: 'Every control position of the division, sorted by callsign.',
  response: {
    200: PositionList,
    401: ErrorBody,
    429: ErrorBody,
  },
};
