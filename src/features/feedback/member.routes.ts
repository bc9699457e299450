// GET/POST /feedback (contract §23): any signed-in member; the 11th within 24 hours is a 429 page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ValidationError } from '../../core/domain/errors.js';
import { formFailure, formValues } from '../../core/web/forms.js';
import { accountView, csrfField, memberActor, sendMessage, sendPage } from '../../core/web/pages.js';
import { feedbackPage as pageSchema, sendFeedbackForm } from './feedback.schema.js';
import { TooMuchFeedbackError } from './feedback.service.js';
import { feedbackPage } from './views/feedback-pages.js';
import type { FormState } from '../roles/index.js';
import { NO_FORM } from '../roles/index.js';
import type { RouteServices } from '../../app/services.js';

const feedbackMemberRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const send = (request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, notice: string | null) =>
    sendPage(
      reply,
      status,
      feedbackPage({
        siteName: services.config.siteName,
        assets: request.server.memberPages.assets,
        account: accountView(request),
        csrf: csrfField(request),
        state,
        notice,
      }),
    );

  app.get('/feedback', { schema: pageSchema }, (request, reply) =>
    send(request, reply, 200, NO_FORM, request.query.done === 'sent' ? 'Thank you: your feedback was sent to the staff.' : null),
  );

  app.post('/feedback', { schema: sendFeedbackForm, attachValidation: true }, async (request, reply) => {
    const failed = formFailure(request);
    const values = formValues(request.body);
    if (failed) return send(request, reply, 422, { form: 'feedback', values, errors: failed.errors }, null);
    try {
      await services.feedback.send(request.body, memberActor(request.member!));
      return await reply.redirect('/feedback?done=sent', 303);
    } catch (err) {
      if (err instanceof ValidationError) return send(request, reply, 422, { form: 'feedback', values, errors: err.errors }, null);
      if (err instanceof TooMuchFeedbackError)
        return sendMessage(request, reply, 429, {
          title: 'Too much feedback',
          message: err.message,
          links: [{ href: '/my', text: 'My page' }],
        });
      throw err;
    }
  });
};

export default feedbackMemberRoutes;
