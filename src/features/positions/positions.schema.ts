import { type Static, Type } from 'typebox';
import { ErrorBody, ValidationErrorBody } from '../../core/web/schema-atoms.js';

/** As listed: three decimals, or "" when not known (a position moved from Control Center without one, §19). */
const ListedFrequency = Type.String({
  pattern: '^(\\d{3}\\.\\d{3})?$',
  examples: ['118.105'],
  description: 'MHz, three decimals; "" when not known (a position moved from Control Center without one)',
});

export const Position = Type.Object(
  {
    callsign: Type.String({ examples: ['EKCH_TWR'] }),
    name: Type.String({ examples: ['Kastrup Tower'] }),
    frequency: ListedFrequency,
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

/** A position as staff manage it (contract §17): what the list shows, with its area, rating and required facility. */
export const PositionDetail = Type.Object(
  {
    callsign: Type.String({ examples: ['EKCH_TWR'] }),
    name: Type.String({ examples: ['Kastrup Tower'] }),
    frequency: ListedFrequency,
    area: Type.Union([Type.String(), Type.Null()], { description: 'Area name; null: none' }),
    rating: Type.String({ examples: ['S2'], description: 'The least rating to control it without a training tag' }),
    required_facility: Type.Union([Type.String(), Type.Null()], { description: 'Facility endorsement it requires; null: none' }),
  },
  { additionalProperties: false, title: 'Position (with area, rating and required facility)' },
);
export type PositionDetail = Static<typeof PositionDetail>;

export const POSITION_PATH = '/api/positions/:callsign';
const CallsignParams = Type.Object({ callsign: Type.String({ maxLength: 40, description: 'Callsign of the position' }) });

const text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });
const positionFields = {
  name: text(200),
  frequency: text(20, 'NNN.NNN in the VHF air band, 118.000 to 136.975'),
  area: text(100, 'Area name'),
  rating: text(10, 'Rating code, S1 to C3'),
  required_facility: Type.Union([text(200, 'Facility endorsement name'), Type.Null()]),
};

export const CreatePositionBody = Type.Object(
  {
    callsign: text(40, 'A-Z, 0-9 and _, 3 to 30 characters'),
    name: positionFields.name,
    frequency: positionFields.frequency,
    area: positionFields.area,
    rating: positionFields.rating,
    required_facility: Type.Optional(positionFields.required_facility),
  },
  { additionalProperties: false },
);
export type CreatePositionBody = Static<typeof CreatePositionBody>;

export const UpdatePositionBody = Type.Object(
  {
    name: Type.Optional(positionFields.name),
    frequency: Type.Optional(positionFields.frequency),
    area: Type.Optional(positionFields.area),
    rating: Type.Optional(positionFields.rating),
    required_facility: Type.Optional(positionFields.required_facility),
  },
  { additionalProperties: false },
);
export type UpdatePositionBody = Static<typeof UpdatePositionBody>;

const writeErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

export const createPosition = {
  operationId: 'createPosition',
  tags: ['positions'],
  summary: 'Add a position',
  description: 'A callsign already in use is 409.',
  body: CreatePositionBody,
  response: { 201: PositionDetail, ...writeErrors },
};

export const updatePosition = {
  operationId: 'updatePosition',
  tags: ['positions'],
  summary: 'Change a position',
  description: 'Any of its fields but the callsign.',
  params: CallsignParams,
  body: UpdatePositionBody,
  response: { 200: PositionDetail, ...writeErrors },
};

export const deletePosition = {
  operationId: 'deletePosition',
  tags: ['positions'],
  summary: 'Remove a position',
  description:
    'Refused (409) while bookings of it are kept: any not deleted, past ones included, as they are the record of who controlled it.',
  params: CallsignParams,
  response: { 204: Type.Null(), ...writeErrors },
};
