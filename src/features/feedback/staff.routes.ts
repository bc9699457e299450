// GET /staff/feedback and its forms (contract §23): correct controller and position, mark actioned,
// comment — for the Moderators and Administrators of the position's area (any of them for feedback
// without a position); Mentors and Buddies get 403.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { formFailure, formValues } from '../../core/web/forms.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { mayDo } from '../roles/domain.js';
import { actionedFeedbackForm, commentFeedbackForm, correctFeedbackForm, staffFeedbackPage as pageSchema } from './feedback.schema.js';
import { staffFeedbackPage } from './views/feedback-pages.js';
import type { RouteServices } from '../../app/services.js';
import { type FormState, failureOf, frameOf, NO_FORM, notFound, noticeOf, refuse, respondToRefusal, viewerOf } from '../roles/index.js';

const form = { attachValidation: true } as const;
const NOTICES = { corrected: 'Feedback corrected.', actioned: 'Feedback updated.', commented: 'Comment added.' };
const REFUSED = "Feedback is read by the Administrators and Moderators of the position's area.";

const feedbackStaffRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const readsAny = (request: FastifyRequest) => mayDo(viewerOf(request).member, { kind: 'feedback', area: null }).ok;

  async function sendList(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, done = '') {
    if (!readsAny(request)) return refuse(request, reply, REFUSED);
    const feedback = await services.feedback.forStaff(viewerOf(request));
    return sendPage(
      reply,
      status,
      staffFeedbackPage({ ...frameOf(request, services), ...feedback, state, notice: noticeOf(done, NOTICES) }),
    );
  }

  async function change(request: FastifyRequest, reply: FastifyReply, id: number, done: string, act: () => Promise<unknown>) {
    try {
      await act();
      return await reply.redirect(`/staff/feedback?done=${done}`, 303);
    } catch (err) {
      const errors = failureOf(err);
      if (errors)
        return sendList(request, reply, 422, {
          form: `feedback-${id}`,
          values: formValues(request.body),
          errors,
        });
      return respondToRefusal(request, reply, err, 'feedback');
    }
  }

  app.get('/staff/feedback', { schema: pageSchema }, (request, reply) => sendList(request, reply, 200, NO_FORM, request.query.done));

  app.post('/staff/feedback/:id', { schema: correctFeedbackForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'feedback');
    const { id } = request.params;
    if (failed) return sendList(request, reply, 422, { form: `feedback-${id}`, values: formValues(request.body), errors: failed.errors });
    return change(request, reply, id, 'corrected', () => services.feedback.correct(id, request.body, memberActor(request.member!)));
  });

  app.post('/staff/feedback/:id/actioned', { schema: actionedFeedbackForm, ...form }, (request, reply) => {
    if (formFailure(request)) return notFound(request, reply, 'feedback');
    const { id } = request.params;
    return change(request, reply, id, 'actioned', () =>
      services.feedback.setActioned(id, request.body.actioned, memberActor(request.member!)),
    );
  });

  app.post('/staff/feedback/:id/comments', { schema: commentFeedbackForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'feedback');
    const { id } = request.params;
    if (failed) return sendList(request, reply, 422, { form: `feedback-${id}`, values: formValues(request.body), errors: failed.errors });
    return change(request, reply, id, 'commented', () => services.feedback.comment(id, request.body.comment, memberActor(request.member!)));
  });
};

export default feedbackStaffRoutes;
