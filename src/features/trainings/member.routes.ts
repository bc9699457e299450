// The student's training pages (contract §18): GET/POST /training/apply, GET /my/training and its
// forms POST /my/training/interest and POST /my/training/close. Every write goes through the same
// service as the API's (TrainingApplicationsService over TrainingsService).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError, type FieldErrors, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { formFailure, formValues } from '../../core/web/forms.js';
import { accountView, csrfField, memberActor, sendMessage, sendPage } from '../../core/web/pages.js';
import { type ApplyValues, applyPage, myTrainingPage } from './views/member-pages.js';
import { myTrainingForm, myTrainingPage as myTrainingSchema, trainingApplyForm, trainingApplyPage } from './member-pages.schema.js';
import type { RouteServices } from '../../app/services.js';

const EMPTY: ApplyValues = { area: '', ratings: [], motivation: '', experience: '', english_only: false };

const NOTICES: Record<string, string> = {
  applied: 'Your application is in the queue.',
  confirmed: 'Thank you: your training request stays in the queue.',
  closed: 'Your training request is closed.',
};

const trainingPagesRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const applications = services.applications;
  const frame = (request: FastifyRequest) => ({
    siteName: services.config.siteName,
    assets: request.server.memberPages.assets,
    account: accountView(request),
    csrf: csrfField(request),
  });

  const alreadyOpen = (request: FastifyRequest, reply: FastifyReply) =>
    sendMessage(request, reply, 409, {
      title: 'You already have a training request',
      message: 'You have an open training; one at a time. Close it on your training page before applying again.',
      links: [{ href: '/my/training', text: 'My training' }],
    });

  async function sendForm(request: FastifyRequest, reply: FastifyReply, status: number, values: ApplyValues, errors: FieldErrors) {
    const { options, openId } = await applications.options(request.member!.cid);
    if (openId !== null) return alreadyOpen(request, reply);
    return sendPage(reply, status, applyPage({ ...frame(request), options, values, errors }));
  }

  app.get('/training/apply', { schema: trainingApplyPage }, (request, reply) => sendForm(request, reply, 200, EMPTY, {}));

  app.post('/training/apply', { schema: trainingApplyForm, attachValidation: true }, async (request, reply) => {
    const failed = formFailure(request);
    const b = request.body;
    const text = formValues(b);
    const values: ApplyValues = {
      area: text.area ?? '',
      ratings: Array.isArray(b.ratings) ? b.ratings.filter((r) => typeof r === 'string') : [],
      motivation: text.motivation ?? '',
      experience: text.experience ?? '',
      english_only: text.english_only === 'on',
    };
    if (failed) return sendForm(request, reply, 422, values, failed.errors);
    try {
      const { area, ratings, motivation, experience, english_only } = b;
      await applications.apply(request.member!.cid, { area, ratings, motivation, experience, english_only }, memberActor(request.member!));
      return await reply.redirect('/my/training?done=applied', 303);
    } catch (err) {
      if (err instanceof ValidationError) return sendForm(request, reply, 422, values, err.errors);
      if (err instanceof ConflictError) return alreadyOpen(request, reply);
      throw err;
    }
  });

  app.get('/my/training', { schema: myTrainingSchema }, async (request, reply) => {
    const { done } = request.query;
    const notice = Object.hasOwn(NOTICES, done) ? NOTICES[done]! : null;
    const mine = await services.studentTrainings.of(request.member!.cid);
    const today = new Date(services.clock()).toISOString().slice(0, 10);
    return sendPage(reply, 200, myTrainingPage({ ...frame(request), mine, notice, today }));
  });

  const noOpenTraining = (request: FastifyRequest, reply: FastifyReply) =>
    sendMessage(request, reply, 404, {
      title: 'No open training',
      message: 'You have no open training request.',
      links: [{ href: '/my/training', text: 'My training' }],
    });

  app.post('/my/training/interest', { schema: myTrainingForm }, async (request, reply) => {
    try {
      await applications.confirmInterest(request.member!.cid, memberActor(request.member!));
      return await reply.redirect('/my/training?done=confirmed', 303);
    } catch (err) {
      if (err instanceof NotFoundError) return noOpenTraining(request, reply);
      throw err;
    }
  });

  app.post('/my/training/close', { schema: myTrainingForm }, async (request, reply) => {
    try {
      await applications.close(request.member!.cid, memberActor(request.member!));
      return await reply.redirect('/my/training?done=closed', 303);
    } catch (err) {
      if (err instanceof NotFoundError) return noOpenTraining(request, reply);
      throw err;
    }
  });
};

export default trainingPagesRoutes;
