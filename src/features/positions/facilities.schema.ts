// Facilities with tiers (contract §22) and the schemas of their API routes.
import { type Static, Type } from 'typebox';
import { ErrorBody, nullable, ValidationErrorBody } from '../../core/web/schema-atoms.js';

export const FACILITY_TIERS = ['T1', 'T2'] as const;
export const FACILITY_DESCRIPTION_MAX = 500;

export const Facility = Type.Object(
  {
    name: Type.String({ description: 'The facility endorsement name positions require (required_facility)' }),
    tier: nullable(
      Type.Union([Type.Literal('T1'), Type.Literal('T2')], { description: 'Tier-1 or tier-2 endorsement at the hub; null: none' }),
    ),
    description: nullable(Type.String()),
  },
  { additionalProperties: false, title: 'Facility' },
);
export type Facility = Static<typeof Facility>;

export const listFacilities = {
  tags: ['Positions'],
  operationId: 'listFacilities',
  summary: 'List facilities with their tiers',
  description: 'Every name some position requires, and every name given a tier or description, by name.',
  response: { 200: Type.Object({ data: Type.Array(Facility) }, { additionalProperties: false }), 401: ErrorBody },
};

export const putFacility = {
  tags: ['Positions'],
  operationId: 'putFacility',
  summary: "Set a facility's tier and description",
  description: '201 when the name was not a facility yet (no position requires it and none was stored), 200 otherwise.',
  params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }),
  body: Type.Object(
    {
      tier: nullable(Type.String({ description: 'T1, T2, or null for none' })),
      description: Type.Optional(nullable(Type.String({ maxLength: 2000, description: `Up to ${FACILITY_DESCRIPTION_MAX} characters` }))),
    },
    { additionalProperties: false },
  ),
  response: { 200: Facility, 201: Facility, 401: ErrorBody, 403: ErrorBody, 422: ValidationErrorBody },
};
