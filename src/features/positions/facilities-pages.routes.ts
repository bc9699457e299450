// GET/POST /staff/facilities (Administrators, contract §22): facilities' tiers and descriptions,
// through the Facilities service the API uses (one write each, audited with the member).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Csrf, Field, pageForm } from '../../core/web/form-atoms.js';
import { formFailure, formValues } from '../../core/web/forms.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { mayDo } from '../roles/domain.js';
import type { RouteServices } from '../../app/services.js';
import { failureOf, type FormState, frameOf, NO_FORM, noticeOf, refuse, respondToRefusal, viewerOf } from '../roles/index.js';
import { facilitiesPage } from './facilities-page.view.js';

const hidden = { hide: true } as const;
const pageSchema = { ...hidden, querystring: pageForm({ done: Field() }) };
const formSchema = { ...hidden, body: pageForm({ name: Field(), tier: Field(), description: Field(), _csrf: Csrf }) };
const REFUSED = 'Facilities and their tiers are kept by Administrators.';

const facilitiesPagesRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  async function send(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, done = '') {
    if (!mayDo(viewerOf(request).member, { kind: 'facilities' }).ok) return refuse(request, reply, REFUSED);
    const facilities = await services.facilities.list();
    const notice = noticeOf(done, { saved: 'Facility saved.' });
    return sendPage(reply, status, facilitiesPage({ ...frameOf(request, services), facilities, state, notice }));
  }

  app.get('/staff/facilities', { schema: pageSchema }, (request, reply) => send(request, reply, 200, NO_FORM, request.query.done));

  app.post('/staff/facilities', { schema: formSchema, attachValidation: true }, async (request, reply) => {
    const b = request.body;
    const facilities = await services.facilities.list();
    const index = facilities.findIndex((f) => f.name === b.name);
    const state = { form: index < 0 ? 'facility-new' : `facility-${index}`, values: formValues(b) };
    const failed = formFailure(request);
    if (failed) return send(request, reply, 422, { ...state, errors: failed.errors });
    try {
      await services.facilities.put(b.name, { tier: b.tier, description: b.description }, memberActor(request.member!));
      return await reply.redirect('/staff/facilities?done=saved', 303);
    } catch (err) {
      const errors = failureOf(err);
      if (errors) return send(request, reply, 422, { ...state, errors });
      return respondToRefusal(request, reply, err, 'facility');
    }
  });
};

export default facilitiesPagesRoutes;
