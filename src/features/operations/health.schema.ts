import { Type } from 'typebox';

export const getHealth = {
  operationId: 'getHealth',
  tags: ['operations'],
  summary: 'Liveness and database reachability',
  response: { 200: Type.Object({ status: Type.Literal('ok') }), 503: Type.Object({ status: Type.String(), message: Type.String() }) },
};
