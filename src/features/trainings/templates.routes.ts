// The report templates' pages (contract §20): GET/POST /staff/templates (the list and a form to add
// one), GET/POST /staff/templates/{tid} (edit) and POST /staff/templates/{tid}/delete — for the
// Moderators and Administrators of an area; anyone else gets 403 and no link to them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { formFailure, formValues, pathFailed } from '../../core/web/forms.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { templatePage, templatesPage } from './views/templates-page.js';
import {
  createTemplateForm,
  deleteTemplateForm,
  templatePage as templateSchema,
  templatesPage as templatesSchema,
  updateTemplateForm,
} from './report-pages.schema.js';
import type { RouteServices } from '../../app/services.js';
import {
  type FormState,
  failureOf,
  frameOf,
  NO_FORM,
  notFound,
  noticeOf,
  refuse,
  respondToRefusal,
  templateAreas,
  viewerOf,
} from '../roles/index.js';

const form = { attachValidation: true } as const;
const NOTICES = { created: 'Template added.', saved: 'Template saved.', deleted: 'Template deleted.' };
const REFUSED = "Report templates are kept by the area's Administrators and Moderators.";

const templatesRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  async function sendList(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, done = '') {
    const areas = templateAreas(viewerOf(request));
    if (areas.length === 0) return refuse(request, reply, REFUSED);
    const templates = await services.reportTemplates.list(areas.map((a) => a.id));
    const page = templatesPage({
      ...frameOf(request, services),
      templates,
      areas: areas.map((a) => a.name),
      state,
      notice: noticeOf(done, NOTICES),
    });
    return sendPage(reply, status, page);
  }

  async function sendOne(request: FastifyRequest, reply: FastifyReply, tid: number, status: number, state: FormState) {
    const view = viewerOf(request);
    const template = await services.reportTemplates.find(view, tid);
    if (!template) return notFound(request, reply, 'template');
    if (!templateAreas(view).some((a) => a.id === template.area_id)) return refuse(request, reply, REFUSED);
    return sendPage(reply, status, templatePage({ ...frameOf(request, services), template, state }));
  }

  /** 303 to the list after a change; the form again with its errors; or a 403/404 page. */
  async function change(
    request: FastifyRequest,
    reply: FastifyReply,
    done: string,
    act: () => Promise<unknown>,
    again: (errors: Record<string, string[]>) => Promise<unknown>,
  ) {
    try {
      await act();
      return await reply.redirect(`/staff/templates?done=${done}`, 303);
    } catch (err) {
      const errors = failureOf(err);
      if (errors) return again(errors);
      return respondToRefusal(request, reply, err, 'template');
    }
  }

  app.get('/staff/templates', { schema: templatesSchema }, (request, reply) => sendList(request, reply, 200, NO_FORM, request.query.done));

  app.post('/staff/templates', { schema: createTemplateForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    const state = { form: 'template-new', values: formValues(request.body) };
    if (failed) return sendList(request, reply, 422, { ...state, errors: failed.errors });
    const { area, name, content } = request.body;
    return change(
      request,
      reply,
      'created',
      () => services.reportTemplates.create({ area, name, content }, memberActor(request.member!)),
      (errors) => sendList(request, reply, 422, { ...state, errors }),
    );
  });

  app.get('/staff/templates/:tid', { schema: templateSchema, ...form }, (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply, 'template');
    return sendOne(request, reply, request.params.tid, 200, NO_FORM);
  });

  app.post('/staff/templates/:tid', { schema: updateTemplateForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'template');
    const { params, body } = request;
    const state = { form: 'template', values: formValues(body) };
    if (failed) return sendOne(request, reply, params.tid, 422, { ...state, errors: failed.errors });
    return change(
      request,
      reply,
      'saved',
      () => services.reportTemplates.update(params.tid, { name: body.name, content: body.content }, memberActor(request.member!)),
      (errors) => sendOne(request, reply, params.tid, 422, { ...state, errors }),
    );
  });

  app.post('/staff/templates/:tid/delete', { schema: deleteTemplateForm, ...form }, (request, reply) => {
    if (formFailure(request)) return notFound(request, reply, 'template');
    const { tid } = request.params;
    return change(
      request,
      reply,
      'deleted',
      () => services.reportTemplates.remove(tid, memberActor(request.member!)),
      () => sendList(request, reply, 409, NO_FORM),
    );
  });
};

export default templatesRoutes;
