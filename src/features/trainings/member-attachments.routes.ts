// GET /my/attachments/{id} (contract §20): the student downloads the files shown to them — not
// hidden, on their published reports and graded examinations; anything else is 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../core/domain/errors.js';
import { IdPath } from '../../core/web/form-atoms.js';
import { pathFailed } from '../../core/web/forms.js';
import { sendMessage } from '../../core/web/pages.js';
import { sendDownload } from '../../core/web/downloads.js';
import type { RouteServices } from '../../app/services.js';

const memberAttachmentRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const none = { title: 'No such file', message: 'There is no such file.', links: [{ href: '/my/training', text: 'My training' }] };

  app.get('/my/attachments/:id', { schema: { hide: true, params: IdPath('id') }, attachValidation: true }, async (request, reply) => {
    if (pathFailed(request)) return sendMessage(request, reply, 404, none);
    try {
      const file = await services.trainingAttachments.forStudent(request.member!.cid, request.params.id);
      return await sendDownload(reply.header('cache-control', 'private, no-store'), file);
    } catch (err) {
      if (err instanceof NotFoundError) return sendMessage(request, reply, 404, none);
      throw err;
    }
  });
};

export default memberAttachmentRoutes;
