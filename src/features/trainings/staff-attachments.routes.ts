// Files on the staff training page (contract §20): an upload form per report and examination
// (multipart; its CSRF token is in its URL, so the staff scope's guard checks it before a byte of
// the file is read), a remove button, and the download for staff who see the training.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ConflictError, UnsupportedTypeError, ValidationError } from '../../core/domain/errors.js';
import { Csrf, FORM_LIMITS, IdPath, pageForm } from '../../core/web/form-atoms.js';
import { formFailure, pathFailed } from '../../core/web/forms.js';
import { csrfToken, memberActor, sendPage } from '../../core/web/pages.js';
import { multipartUploads, readUpload } from '../../core/web/uploads.js';
import { type FormState, frameOf, notFound, respondToRefusal, viewerOf } from '../roles/index.js';
import { ATTACHMENT_BYTES_MAX, TOO_LARGE } from './attachments.domain.js';
import type { AttachmentTarget } from './attachments.domain.js';
import { sendDownload } from '../../core/web/downloads.js';
import { uploadFormName } from './views/attachments.js';
import { trainingPage } from './views/staff-detail.js';
import { completionOffer, trainingTasksSection } from '../tasks/index.js';
import type { RouteServices } from '../../app/services.js';

const hidden = { hide: true } as const;
const id = () => Type.Integer({ minimum: 1, maximum: FORM_LIMITS.id });
const form = { attachValidation: true } as const;

const staffAttachmentRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  await multipartUploads(app);
  const today = () => new Date(services.clock()).toISOString().slice(0, 10);

  /** The training page again, with the upload form's message beside its field. */
  async function sendTraining(request: FastifyRequest, reply: FastifyReply, trainingId: number, status: number, state: FormState) {
    const view = await services.trainingDesk.detail(viewerOf(request), trainingId);
    if (view === null) return notFound(request, reply, 'training');
    const reports = await services.trainingReports.desk(viewerOf(request), view.record, view.detail.reports);
    const member = viewerOf(request).member;
    const tasks = await services.taskPages.ofTraining(member, view.record);
    const frame = frameOf(request, services);
    const page = trainingPage({
      ...frameOf(request, services),
      view,
      reports,
      today: today(),
      state,
      notice: null,
      csrfToken: csrfToken(request),
      tasks: trainingTasksSection({ trainingId, viewer: member.cid, tasks, csrf: frame.csrf, state }),
      offer: completionOffer(view.detail, tasks.mayCreate),
    });
    return sendPage(reply, status, page);
  }

  async function upload(request: FastifyRequest, reply: FastifyReply, trainingId: number, target: AttachmentTarget) {
    if (pathFailed(request)) return notFound(request, reply, target.kind);
    const state = (status: number, errors: Record<string, string[]>) =>
      sendTraining(request, reply, trainingId, status, { form: uploadFormName(target.kind, target.id), values: {}, errors });
    const read = await readUpload(request, { field: 'file', maxBytes: ATTACHMENT_BYTES_MAX, tooLarge: TOO_LARGE });
    if (!read.ok) return state(read.status, { file: [read.message] });
    if (read.file === null || read.file.bytes.length === 0) return state(422, { file: ['Choose a file to upload.'] });
    const isHidden = read.fields.hidden !== undefined && read.fields.hidden !== '';
    try {
      await services.trainingAttachments.upload(trainingId, target, read.file, isHidden, memberActor(request.member!));
      return await reply.redirect(`/staff/trainings/${trainingId}?done=attached`, 303);
    } catch (err) {
      if (err instanceof UnsupportedTypeError) return state(415, { file: [err.message] });
      if (err instanceof ValidationError) return state(422, err.errors);
      if (err instanceof ConflictError) return state(409, { form: [err.message] });
      return respondToRefusal(request, reply, err, target.kind);
    }
  }

  const ReportPath = Type.Object({ id: id(), rid: id() });
  const ExamPath = Type.Object({ id: id(), xid: id() });
  app.post('/staff/trainings/:id/reports/:rid/attachments', { schema: { ...hidden, params: ReportPath }, ...form }, (request, reply) =>
    upload(request, reply, request.params.id, { kind: 'report', id: request.params.rid }),
  );
  app.post('/staff/trainings/:id/examinations/:xid/attachments', { schema: { ...hidden, params: ExamPath }, ...form }, (request, reply) =>
    upload(request, reply, request.params.id, { kind: 'examination', id: request.params.xid }),
  );

  app.get('/staff/attachments/:id', { schema: { ...hidden, params: IdPath('id') }, ...form }, async (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply, 'file');
    try {
      const file = await services.trainingAttachments.forStaff(viewerOf(request).member, request.params.id);
      return await sendDownload(reply.header('cache-control', 'private, no-store'), file);
    } catch (err) {
      return respondToRefusal(request, reply, err, 'file');
    }
  });

  app.post(
    '/staff/attachments/:id/remove',
    { schema: { ...hidden, params: IdPath('id'), body: pageForm({ _csrf: Csrf }) }, ...form },
    async (request, reply) => {
      if (formFailure(request)?.part === 'params') return notFound(request, reply, 'file');
      try {
        const { trainingId } = await services.trainingAttachments.remove(request.params.id, memberActor(request.member!));
        return await reply.redirect(`/staff/trainings/${trainingId}?done=removed`, 303);
      } catch (err) {
        return respondToRefusal(request, reply, err, 'file');
      }
    },
  );
};

export default staffAttachmentRoutes;
