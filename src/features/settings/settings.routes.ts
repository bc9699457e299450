// GET/POST /my/settings and GET /my/data (contract §24), in the members' scope (signed in, else to
// sign-in; the form's token checked by the scope).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../core/domain/errors.js';
import { contentDisposition } from '../../core/web/downloads.js';
import { formFailure } from '../../core/web/forms.js';
import { accountView, csrfField, memberActor, sendPage } from '../../core/web/pages.js';
import type { RouteServices } from '../../app/services.js';
import { isLook, isMailKind, type MailKind, type MemberSettings } from '../notices/index.js';
import { dataDownload, settingsForm, settingsPage as settingsPageSchema } from './settings.schema.js';
import { settingsPage } from './views/settings-page.js';

const settingsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const frame = (request: FastifyRequest) => ({
    siteName: services.config.siteName,
    assets: request.server.memberPages.assets,
    account: accountView(request),
    csrf: csrfField(request),
  });
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    settings: MemberSettings,
    errors: FieldErrors,
    saved = false,
  ) => sendPage(reply.header('cache-control', 'no-store'), status, settingsPage({ ...frame(request), settings, errors, saved }));

  app.get('/my/settings', { schema: settingsPageSchema }, async (request, reply) =>
    send(request, reply, 200, await services.settings.of(request.member!.cid), {}, request.query.done === 'saved'),
  );

  app.post('/my/settings', { schema: settingsForm, attachValidation: true }, async (request, reply) => {
    const failed = formFailure(request);
    const cid = request.member!.cid;
    const errors: FieldErrors = failed?.errors ?? {};
    const look = request.body.look;
    const mail = Array.isArray(request.body.mail) ? request.body.mail : [];
    if (!failed && !isLook(look)) errors.look = ['Choose how the pages look: follow your device, light or dark.'];
    const unknown = mail.filter((k) => !isMailKind(k));
    if (!failed && unknown.length > 0) errors.mail = [`There is no kind of mail named ${unknown.join(', ')}.`];
    if (Object.keys(errors).length > 0) {
      const current = await services.settings.of(cid);
      const kinds = mail.filter(isMailKind);
      const shown: MemberSettings = {
        look: isLook(look) ? look : current.look,
        mail: Object.fromEntries(Object.keys(current.mail).map((k) => [k, kinds.includes(k as MailKind)])) as MemberSettings['mail'],
      };
      return send(request, reply, 422, shown, errors);
    }
    await services.settings.save(memberActor(request.member!), look as MemberSettings['look'], new Set(mail.filter(isMailKind)));
    return reply.redirect('/my/settings?done=saved', 303);
  });

  app.get('/my/data', { schema: dataDownload }, async (request, reply) => {
    const cid = request.member!.cid;
    const body = JSON.stringify(await services.settings.data(cid), null, 2);
    return reply
      .header('cache-control', 'no-store')
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', contentDisposition(`my-data-${cid}.json`))
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });
};

export default settingsRoutes;
