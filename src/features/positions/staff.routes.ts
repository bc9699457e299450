// GET /staff/positions (Administrators of an area, or of the division) and its forms: add a
// position, change one, remove one (409, said beside its form, while it has live bookings).
// Through the Positions service the API uses: one write each with its audit entry and event.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { ConflictError, type FieldErrors } from '../../core/domain/errors.js';
import { formFailure, formValues, pathFailed } from '../../core/web/forms.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { type FormState, NO_FORM } from '../roles/index.js';
import { positionsPage } from './staff-page.view.js';
import { addPositionForm, changePositionForm, removePositionForm, staffPositionsPage } from './staff-pages.schema.js';
import type { RouteServices } from '../../app/services.js';
import { failureOf, frameOf, notFound, noticeOf, positionAreas, refuse, respondToRefusal, viewerOf } from '../roles/index.js';

const NOTICES = { added: 'Position added.', changed: 'Position changed.', removed: 'Position removed.' };
const MANAGED_BY = "An area's positions are added, changed and removed by its Administrators.";

const positionsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  async function sendPositions(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, notice: string | null) {
    const areas = positionAreas(viewerOf(request));
    if (areas.length === 0) return refuse(request, reply, MANAGED_BY);
    const positions = await services.positions.details();
    return sendPage(reply, status, positionsPage({ ...frameOf(request, services), positions, areas, state, notice }));
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

  /** A refused form again: its fields beside their messages (the callsign as it is kept, in capitals). */
  const refused = (request: FastifyRequest, reply: FastifyReply, form: string, errors: FieldErrors) => {
    const values = formValues(request.body);
    if (values.callsign !== undefined) values.callsign = values.callsign.toUpperCase();
    return sendPositions(request, reply, 422, { form, values, errors }, null);
  };
  /** The position's fields of a form (nothing else it carried), and what the service takes: a blank facility is none. */
  const fieldsOf = ({ name, frequency, area, rating, required_facility }: Static<typeof changePositionForm.body>) => ({
    name,
    frequency,
    area,
    rating,
    required_facility,
  });
  const inputOf = <T extends { required_facility: string }>(v: T) => ({ ...v, required_facility: v.required_facility || null });
  const form = { attachValidation: true } as const;

  app.post('/staff/positions', { schema: addPositionForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    if (failed) return refused(request, reply, 'position-new', failed.errors);
    const v = { callsign: request.body.callsign.toUpperCase(), ...fieldsOf(request.body) };
    return change(request, reply, { form: 'position-new', values: v }, 'added', () =>
      services.positions.create(inputOf(v), memberActor(request.member!)),
    );
  });

  app.post('/staff/positions/:callsign', { schema: changePositionForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'position');
    const callsign = request.params.callsign.toUpperCase();
    if (failed) return refused(request, reply, `position-${callsign}`, failed.errors);
    const v = fieldsOf(request.body);
    const state = { form: `position-${callsign}`, values: v };
    return change(request, reply, state, 'changed', () => services.positions.update(callsign, inputOf(v), memberActor(request.member!)));
  });

  app.post('/staff/positions/:callsign/remove', { schema: removePositionForm, ...form }, (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply, 'position');
    const callsign = request.params.callsign.toUpperCase();
    return change(request, reply, { form: `position-${callsign}`, values: {} }, 'removed', () =>
      services.positions.remove(callsign, memberActor(request.member!)),
    );
  });
};

export default positionsRoutes;
