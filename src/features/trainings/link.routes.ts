// The holder's side of a one-time link (contract §20): GET /training/link/{token} shows the
// training's summary, its published reports and the report form (or, for a grading link, the
// examination and its result); POST saves that one thing, which uses the link up (a grading link's
// holder may first add files to the examination: POST …/files). A members' page (signed in); the
// address is a credential, so these pages send no Referer and are never stored by a cache. An
// unknown, used or expired link is 410.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ConflictError,
  ForbiddenError,
  type FieldErrors,
  NotFoundError,
  UnsupportedTypeError,
  ValidationError,
} from '../../core/domain/errors.js';
import { formFailure, formValues } from '../../core/web/forms.js';
import { accountView, csrfField, csrfToken, memberActor, sendMessage, sendPage } from '../../core/web/pages.js';
import { multipartUploads, readUpload } from '../../core/web/uploads.js';
import { ATTACHMENT_BYTES_MAX, TOO_LARGE } from './attachments.domain.js';
import { LinkGoneError } from './links.service.js';
import { linkFiles, linkPage, linkReportForm } from './links.schema.js';
import { type LinkReportValues, linkExamPage, linkReportPage } from './views/link-pages.js';
import type { RouteServices } from '../../app/services.js';

const EMPTY: LinkReportValues = { report_date: '', position: '', content: '', improve: '', result: '' };

const trainingLinkRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const links = services.trainingLinks;
  await multipartUploads(app);

  /** The address is a credential: neither the page nor what it links to may pass it on in a Referer, nor a cache keep it. */
  const noReferrer = (reply: FastifyReply) => reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');

  const gone = (request: FastifyRequest, reply: FastifyReply, err: LinkGoneError) =>
    sendMessage(request, reply, 410, {
      title: 'This link cannot be used',
      message: `${err.message} A one-time link works once, for seven days; ask the area's staff for a new one.`,
      links: [{ href: '/', text: 'Back to the schedule' }],
    });

  /** 410, 403 or 404 pages for a link that cannot be used by this member; rethrows anything else. */
  function refusal(request: FastifyRequest, reply: FastifyReply, err: unknown) {
    if (err instanceof LinkGoneError) return gone(request, reply, err);
    if (err instanceof ForbiddenError) return sendMessage(request, reply, 403, { title: 'Not allowed', message: err.message });
    if (err instanceof NotFoundError) return gone(request, reply, new LinkGoneError('unknown'));
    throw err;
  }

  async function sendForm(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    status: number,
    values: LinkReportValues,
    errors: FieldErrors,
    upload: { errors: FieldErrors; notice: string | null } = { errors: {}, notice: null },
  ) {
    const view = await links.open(token, request.member!.cid);
    const frame = {
      siteName: services.config.siteName,
      assets: request.server.memberPages.assets,
      account: accountView(request),
      csrf: csrfField(request),
    };
    const action = `/training/link/${token}`;
    if (view.kind === 'report') return sendPage(reply, status, linkReportPage({ ...frame, action, view, values, errors }));
    // The upload form carries its CSRF token in its URL: the scope's guard checks it before the file is read.
    const files = { ...upload, action: `${action}/files?_csrf=${encodeURIComponent(csrfToken(request))}` };
    return sendPage(reply, status, linkExamPage({ ...frame, action, view, values, errors, upload: files }));
  }

  // Static, so they win over the token's route: where a saved report or result lands (the link is used up).
  app.get('/training/link/saved', { schema: { hide: true } }, (request, reply) =>
    sendMessage(request, reply, 200, {
      title: 'Report saved',
      message: 'Thank you: the report is saved and the student told. The link is used up.',
      links: [{ href: '/my', text: 'My page' }],
    }),
  );
  app.get('/training/link/graded', { schema: { hide: true } }, (request, reply) =>
    sendMessage(request, reply, 200, {
      title: 'Examination graded',
      message: 'Thank you: the result is saved and the student told. The link is used up.',
      links: [{ href: '/my', text: 'My page' }],
    }),
  );

  app.get('/training/link/:token', { schema: linkPage, attachValidation: true }, async (request, reply) => {
    noReferrer(reply);
    if (formFailure(request)) return gone(request, reply, new LinkGoneError('unknown'));
    const attached = request.query.done === 'attached';
    try {
      const upload = { errors: {}, notice: attached ? 'The file is added. Grade the examination when you are ready.' : null };
      return await sendForm(request, reply, request.params.token, 200, EMPTY, {}, upload);
    } catch (err) {
      return refusal(request, reply, err);
    }
  });

  // A file added through a grading link (the examination form, say); grading still uses the link up.
  app.post('/training/link/:token/files', { schema: linkFiles, attachValidation: true }, async (request, reply) => {
    noReferrer(reply);
    if (formFailure(request)) return gone(request, reply, new LinkGoneError('unknown'));
    const token = request.params.token;
    const again = (status: number, errors: FieldErrors) => sendForm(request, reply, token, status, EMPTY, {}, { errors, notice: null });
    try {
      // Which link it is, before a byte of the file is read: only a grading link takes files.
      if ((await links.kindOf(token)) !== 'examination') throw new LinkGoneError('unknown');
      const read = await readUpload(request, { field: 'file', maxBytes: ATTACHMENT_BYTES_MAX, tooLarge: TOO_LARGE });
      if (!read.ok) return await again(read.status, { file: [read.message] });
      if (read.file === null || read.file.bytes.length === 0) return await again(422, { file: ['Choose a file to upload.'] });
      const hidden = (read.fields.hidden ?? '') !== '';
      await links.attachToExamination(token, memberActor(request.member!), read.file, hidden);
      return await reply.redirect(`/training/link/${token}?done=attached`, 303);
    } catch (err) {
      if (err instanceof UnsupportedTypeError) return again(415, { file: [err.message] });
      if (err instanceof ValidationError) return again(422, err.errors);
      if (err instanceof ConflictError) return again(409, { file: [err.message] });
      return refusal(request, reply, err);
    }
  });

  app.post('/training/link/:token', { schema: linkReportForm, attachValidation: true }, async (request, reply) => {
    noReferrer(reply);
    const failed = formFailure(request);
    if (failed?.part === 'params') return gone(request, reply, new LinkGoneError('unknown'));
    const { params, body: b } = request;
    const text = formValues(b);
    const values: LinkReportValues = {
      report_date: text.report_date ?? '',
      position: text.position ?? '',
      content: text.content ?? '',
      improve: text.improve ?? '',
      result: text.result ?? '',
    };
    try {
      if (failed) return await sendForm(request, reply, params.token, 422, values, failed.errors);
      // A grading link's form sends the result and no report: which one the link is for decides.
      if ((await links.kindOf(params.token)) === 'examination') {
        await links.gradeExamination(params.token, memberActor(request.member!), b.result);
        return await reply.redirect('/training/link/graded', 303);
      }
      const input = { report_date: b.report_date, content: b.content, improve: b.improve || null, position: b.position || null };
      await links.writeReport(params.token, memberActor(request.member!), input);
      return await reply.redirect('/training/link/saved', 303);
    } catch (err) {
      if (err instanceof ValidationError) return sendForm(request, reply, params.token, 422, values, err.errors);
      return refusal(request, reply, err);
    }
  });
};

export default trainingLinkRoutes;
