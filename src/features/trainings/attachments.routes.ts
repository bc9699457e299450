// Files on training reports and examinations through the API (contract §20): upload (multipart,
// streamed by readUpload under the scope's key check), download, remove.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../core/web/errors.js';
import { multipartUploads, readUpload } from '../../core/web/uploads.js';
import { sendDownload } from '../../core/web/downloads.js';
import { keyActor } from '../api-keys/index.js';
import { ATTACHMENT_BYTES_MAX, TOO_LARGE } from './attachments.domain.js';
import type { AttachmentTarget } from './attachments.domain.js';
import { deleteAttachment, getAttachment, uploadExaminationAttachment, uploadReportAttachment } from './attachments.schema.js';
import { TRAINING_ID_PATH } from './trainings.schema.js';
import type { RouteServices } from '../../app/services.js';

const ID = '(^\\d{1,10}$)';

/** The upload's file and `hidden` flag; the refusal as the API's JSON error. */
export async function uploadOf(request: FastifyRequest): Promise<{ file: { name: string; bytes: Buffer } | null; hidden: boolean }> {
  const upload = await readUpload(request, { field: 'file', maxBytes: ATTACHMENT_BYTES_MAX, tooLarge: TOO_LARGE });
  if (!upload.ok) throw new ApiError(upload.status, upload.message);
  const hidden = upload.fields.hidden?.trim().toLowerCase();
  if (hidden !== undefined && !['true', 'false', '1', '0', 'on', ''].includes(hidden))
    throw new ApiError(422, 'The hidden field must be true or false.', { errors: { hidden: ['The hidden field must be true or false.'] } });
  return { file: upload.file, hidden: hidden === 'true' || hidden === '1' || hidden === 'on' };
}

const attachmentsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  await multipartUploads(app);

  async function upload(request: FastifyRequest, reply: FastifyReply, trainingId: number, target: AttachmentTarget) {
    const { file, hidden } = await uploadOf(request);
    if (file === null) throw new ApiError(422, 'Send the file in the field "file".', { errors: { file: ['The file field is required.'] } });
    const created = await services.trainingAttachments.upload(trainingId, target, file, hidden, keyActor(request));
    return reply.code(201).header('location', `/api/attachments/${created.id}`).send(created);
  }

  app.post(
    `${TRAINING_ID_PATH}/reports/:rid${ID}/attachments`,
    { schema: uploadReportAttachment, config: { auth: 'edit' } },
    (request, reply) => upload(request, reply, request.params.id, { kind: 'report', id: request.params.rid }),
  );

  app.post(
    `${TRAINING_ID_PATH}/examinations/:xid${ID}/attachments`,
    { schema: uploadExaminationAttachment, config: { auth: 'edit' } },
    (request, reply) => upload(request, reply, request.params.id, { kind: 'examination', id: request.params.xid }),
  );

  app.get(`/api/attachments/:id${ID}`, { schema: getAttachment, config: { auth: 'read' } }, async (request, reply) =>
    sendDownload(reply as FastifyReply, await services.trainingAttachments.forKey(request.params.id)),
  );

  app.delete(`/api/attachments/:id${ID}`, { schema: deleteAttachment, config: { auth: 'edit' } }, async (request, reply) => {
    await services.trainingAttachments.remove(request.params.id, keyActor(request));
    return reply.code(204).send(null);
  });
};

export default attachmentsRoutes;
