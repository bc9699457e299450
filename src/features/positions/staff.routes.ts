// GET /staff/positions (Administrators of an area, or of the division) and its forms: add a
// position, change one, remove one (409, said beside its form, while it has live bookings).
// Through the Positions service the API uses: one write each with its audit entry and event.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError } from '../../core/domain/errors.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { type FormState, NO_FORM } from '../roles/staff-frame.view.js';
import { positionsPage } from './staff-page.view.js';
import { addPositionForm, changePositionForm, removePositionForm, staffPositionsPage } from '../roles/staff-pages.schema.js';
import type { RouteServices } from '../../app/services.js';
import { respondToRefusal, failureOf, frameOf, noticeOf, positionAreas, refuse, text, viewerOf } from '../roles/staff-scope.js';

const NOTICES = { added: 'Position added.', changed: 'Position changed.', removed: 'Position removed.' };
const MANAGED_BY = "An area's positions are added, changed and removed by its Administrators.";

const positionsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  async function sendPositions(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, notice: string | null) {
    const areas = positionAreas(viewerOf(request));
    if (areas.length === 0) return refuse(request, reply, MANAGED_BY);
    const positions = await services.positions.details();
    return sendPage(reply, status, positionsPage({ ...frameOf(request, services), positions, areas, state, notice }));
  }

  /** The posted fields, blanks as not given (the service names what is missing). */
  function fieldsOf(body: Record<string, unknown>) {
    const values = {
      callsign: text(body.callsign).toUpperCase(),
      name: text(body.name),
      frequency: text(body.frequency),
      area: text(body.area),
      rating: text(body.rating),
      required_facility: text(body.required_facility),
    };
    return values;
  }

  async function change(
    request: FastifyRequest,
    reply: FastifyReply,
    state: Omit<FormState, 'errors'>,
    done: string,
    act: () => Promise<unknown>,
  ) {
    try {
      await act();
      return await reply.redirect(`/staff/positions?done=${done}`, 303);
    } catch (err) {
      const errors = failureOf(err);
      if (errors) return sendPositions(request, reply, err instanceof ConflictError ? 409 : 422, { ...state, errors }, null);
      return respondToRefusal(request, reply, err, 'position');
    }
  }

  app.get('/staff/positions', { schema: staffPositionsPage }, (request, reply) =>
    sendPositions(request, reply, 200, NO_FORM, noticeOf(request.query.done, NOTICES)),
  );

  app.post('/staff/positions', { schema: addPositionForm }, (request, reply) => {
    const v = fieldsOf(request.body);
    const input = { ...v, required_facility: v.required_facility === '' ? null : v.required_facility };
    return change(request, reply, { form: 'position-new', values: v }, 'added', () =>
      services.positions.create(input, memberActor(request.member!)),
    );
  });

  app.post('/staff/positions/:callsign', { schema: changePositionForm }, (request, reply) => {
    const callsign = request.params.callsign.toUpperCase();
    const { callsign: _c, ...v } = fieldsOf(request.body);
    const input = { ...v, required_facility: v.required_facility === '' ? null : v.required_facility };
    const state = { form: `position-${callsign}`, values: v };
    return change(request, reply, state, 'changed', () => services.positions.update(callsign, input, memberActor(request.member!)));
  });

  app.post('/staff/positions/:callsign/remove', { schema: removePositionForm }, (request, reply) => {
    const callsign = request.params.callsign.toUpperCase();
    return change(request, reply, { form: `position-${callsign}`, values: {} }, 'removed', () =>
      services.positions.remove(callsign, memberActor(request.member!)),
    );
  });
};

export default positionsRoutes;
