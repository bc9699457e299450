// A report's forms on the staff pages (contract §20): GET /staff/trainings/{id}/reports/{rid}/edit
// (the form filled with the report, or with a template picked), POST …/{rid} (save; unticking Draft
// publishes), POST …/{rid}/publish and POST …/{rid}/delete. Every change goes through
// TrainingReportsService, the API's own.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError } from '../../core/domain/errors.js';
import { formFailure, formValues } from '../../core/web/forms.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { editReportPage } from './views/report-form.js';
import { editReportForm, editReportPage as editReportSchema, reportActionForm } from './report-pages.schema.js';
import type { RouteServices } from '../../app/services.js';
import { type FormState, failureOf, frameOf, NO_FORM, notFound, refuse, respondToRefusal, viewerOf } from '../roles/index.js';

const form = { attachValidation: true } as const;

const reportPagesRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  async function sendEdit(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    rid: number,
    status: number,
    state: FormState,
    template = '',
  ) {
    const viewer = viewerOf(request);
    const view = await services.trainingDesk.detail(viewer, id);
    const report = view?.detail.reports.find((r) => r.id === rid);
    if (!view || !report) return notFound(request, reply, 'report');
    const desk = await services.trainingReports.desk(viewer, view.record, view.detail.reports);
    if (!desk.changeable.has(rid)) {
      return refuse(
        request,
        reply,
        report.draft
          ? 'A draft report is changed by its author or by staff who may write reports of this training.'
          : "A published report is changed by its author or by the area's Moderators and Administrators.",
      );
    }
    const picked = desk.templates.find((x) => String(x.id) === template);
    const shown = picked ? { form: 'edit', values: { ...stored(report), content: picked.content }, errors: {} } : state;
    const student = `${view.names.get(view.record.user_id) ?? view.record.user_id} (${view.record.user_id})`;
    return sendPage(reply, status, editReportPage({ ...frameOf(request, services), trainingId: id, student, report, desk, state: shown }));
  }

  const stored = (r: { report_date: string; position: string | null; content: string; improve: string | null; draft: boolean }) => ({
    report_date: r.report_date,
    position: r.position ?? '',
    content: r.content,
    improve: r.improve ?? '',
    draft: r.draft ? 'on' : '',
  });

  /** Runs a change of a report: 303 to the training page, else the edit form again (422/409) or a 403/404 page. */
  async function change(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    rid: number,
    act: () => Promise<string>,
    state?: Omit<FormState, 'errors'>,
  ) {
    try {
      const done = await act();
      return await reply.redirect(`/staff/trainings/${id}?done=${done}#reports-title`, 303);
    } catch (err) {
      const errors = failureOf(err);
      if (errors && state) return sendEdit(request, reply, id, rid, err instanceof ConflictError ? 409 : 422, { ...state, errors });
      return respondToRefusal(request, reply, err, 'report');
    }
  }

  app.get('/staff/trainings/:id/reports/:rid/edit', { schema: editReportSchema, ...form }, (request, reply) => {
    if (formFailure(request)) return notFound(request, reply, 'report');
    return sendEdit(request, reply, request.params.id, request.params.rid, 200, NO_FORM, request.query.template);
  });

  app.post('/staff/trainings/:id/reports/:rid', { schema: editReportForm, ...form }, async (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'report');
    const { params, body: b } = request;
    const state = { form: 'edit', values: formValues(b) };
    if (failed) return sendEdit(request, reply, params.id, params.rid, 422, { ...state, errors: failed.errors });
    const patch = {
      report_date: b.report_date,
      content: b.content,
      improve: b.improve || null,
      position: b.position || null,
      draft: b.draft,
    };
    return change(
      request,
      reply,
      params.id,
      params.rid,
      async () => {
        const before = await services.trainingDesk.detail(viewerOf(request), params.id);
        const wasDraft = before?.detail.reports.find((r) => r.id === params.rid)?.draft === true;
        const after = await services.trainingReports.update(params.id, params.rid, patch, memberActor(request.member!));
        return wasDraft && !after.draft ? 'report-published' : 'report-edited';
      },
      state,
    );
  });

  app.post('/staff/trainings/:id/reports/:rid/publish', { schema: reportActionForm, ...form }, (request, reply) => {
    if (formFailure(request)) return notFound(request, reply, 'report');
    const { id, rid } = request.params;
    return change(request, reply, id, rid, async () => {
      await services.trainingReports.update(id, rid, { draft: false }, memberActor(request.member!));
      return 'report-published';
    });
  });

  app.post('/staff/trainings/:id/reports/:rid/delete', { schema: reportActionForm, ...form }, (request, reply) => {
    if (formFailure(request)) return notFound(request, reply, 'report');
    const { id, rid } = request.params;
    return change(request, reply, id, rid, async () => {
      await services.trainingReports.remove(id, rid, memberActor(request.member!));
      return 'report-deleted';
    });
  });
};

export default reportPagesRoutes;
