import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ValidationError } from '../../core/domain/errors.js';
import { parseIsoInstant } from '../../core/domain/time.js';
import { keyActor } from '../api-keys/api-keys.plugin.js';
import type { RouteServices } from '../../app/services.js';
import {
  type CreateEndorsementBody,
  createEndorsement,
  ENDORSEMENT_ID_PATH,
  getEndorsement,
  listEndorsements,
  revokeEndorsement,
  updateEndorsement,
} from './endorsements.schema.js';

/** A time field: ISO 8601, or null/blank for none where allowed; a 422 naming the field otherwise. */
export function instantOf(field: string, text: string | null | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  if (text === null || text.trim() === '') return null;
  const ms = parseIsoInstant(text.trim());
  if (ms === null)
    throw new ValidationError({ [field]: [`The ${field} field must be an ISO 8601 date and time, like 2026-12-01T12:00:00Z.`] });
  return ms;
}

const list = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((s) => s.trim()).filter(Boolean);

/** What a create asks for, in the terms of the rules (src/features/endorsements/domain.ts). */
function requestOf(body: CreateEndorsementBody, now: number) {
  const validFrom = instantOf('valid_from', body.valid_from);
  return {
    userId: Number(body.user_id),
    req: {
      type: body.type.trim(),
      rating: body.rating === undefined || body.rating === null || body.rating.trim() === '' ? null : body.rating.trim(),
      areas: list(body.areas),
      positions: list(body.positions),
      valid_from: validFrom ?? now,
      valid_to: instantOf('valid_to', body.valid_to) ?? null,
    },
  };
}

const endorsementsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/endorsements', { schema: listEndorsements, config: { auth: 'read' } }, async (request) => {
    const q = request.query;
    return {
      data: await services.endorsements.list({
        ...(q.user_id !== undefined ? { user_id: q.user_id } : {}),
        ...(q.type !== undefined ? { type: q.type } : {}),
        ...(q.active !== undefined ? { active: q.active === 'true' } : {}),
      }),
    };
  });

  app.get(ENDORSEMENT_ID_PATH, { schema: getEndorsement, config: { auth: 'read' } }, (request) =>
    services.endorsements.find(request.params.id),
  );

  app.post('/api/endorsements', { schema: createEndorsement, config: { auth: 'edit' } }, async (request, reply) => {
    const { userId, req } = requestOf(request.body, services.clock());
    const created = await services.endorsements.issue(userId, req, keyActor(request));
    return reply.code(201).header('location', `/api/endorsements/${created.id}`).send(created);
  });

  app.patch(ENDORSEMENT_ID_PATH, { schema: updateEndorsement, config: { auth: 'edit' } }, (request) =>
    services.endorsements.setEnd(request.params.id, instantOf('valid_to', request.body.valid_to) ?? null, keyActor(request)),
  );

  app.delete(ENDORSEMENT_ID_PATH, { schema: revokeEndorsement, config: { auth: 'edit' } }, (request) =>
    services.endorsements.revoke(request.params.id, keyActor(request)),
  );
};

export default endorsementsRoutes;
