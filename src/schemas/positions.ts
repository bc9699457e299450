import { Type } from 'typebox';
import { ErrorBody } from './common.js';

export const Position = Type.Object(
  {
    callsign: Type.String({ examples: ['EKCH_TWR'] }),
    name: Type.String({ examples: ['Kastrup Tower'] }),
    frequency: Type.String({ pattern: '^\\d{3}\\.\\d{3}$', examples: ['118.105'], description: 'MHz, three decimals' }),
  },
  { additionalProperties: false },
);

export const listPositions = {
  tags: ['positions'],
  summary: 'List positions',
  description: 'Every control position of the division, sorted by callsign.',
  response: {
    200: Type.Object({ data: Type.Array(Position) }, { additionalProperties: false }),
    401: ErrorBody,
    429: ErrorBody,
  },
};
