// GET /my, the member's home (contract §20), in the members' scope (signed in, else to sign-in).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountView, csrfField, sendPage } from '../../core/web/pages.js';
import { homePage as homePageSchema } from './home.schema.js';
import { homePage } from './views/home-page.js';
import type { RouteServices } from '../../app/services.js';

const homeRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/my', { schema: homePageSchema }, async (request, reply) => {
    const home = await services.home.of(request.member!.cid);
    const frame = {
      siteName: services.config.siteName,
      assets: request.server.memberPages.assets,
      account: accountView(request),
      csrf: csrfField(request),
    };
    return sendPage(reply, 200, homePage({ ...frame, home }));
  });
};

export default homeRoutes;
