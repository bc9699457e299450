// npm run demo (src/demo-mode.ts, docs/demo.md): GET /auth/login lists demo people, POST /auth/demo
// signs in as one of them. Registered only in demo mode: a normal start has neither route. The
// session is made as the network's sign-in makes one; only the round trip to the network is left out.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { landingOf } from './domain.js';
import { formFailure } from '../../core/web/forms.js';
import { accountView, sendMessage, sendPage } from '../../core/web/pages.js';
import { clearCookie, LOGIN_COOKIE, setSessionCookie, setSignedCookie, signedCookie } from './member-session.plugin.js';
import { demoSignInPage } from './demo-page.view.js';
import { demoSignInForm, signInPage } from './sign-in.schema.js';
import type { RouteServices } from '../../app/services.js';
import type { DemoSignInService } from './demo.service.js';

const LOGIN_MAX_AGE_S = 10 * 60;

const demoRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices; demo: DemoSignInService }> = async (app, { services, demo }) => {
  app.get('/auth/login', { schema: signInPage }, async (request, reply) => {
    const { tokens, assets } = request.server.memberPages;
    // The form's token is bound to this browser by a signed cookie holding its secret (no session yet).
    const secret = tokens.secretSync();
    setSignedCookie(reply, LOGIN_COOKIE, secret, LOGIN_MAX_AGE_S);
    const page = demoSignInPage({
      siteName: services.config.siteName,
      assets,
      account: accountView(request),
      people: await demo.people(),
      token: tokens.create(secret),
      next: landingOf(request.query.next),
    });
    return sendPage(reply.header('cache-control', 'no-store'), 200, page);
  });

  app.post('/auth/demo', { schema: demoSignInForm, config: { signInForm: true }, attachValidation: true }, async (request, reply) => {
    // The token first, whatever the fields: a form from elsewhere is never told what is wrong with them.
    const secret = signedCookie(request, LOGIN_COOKIE);
    const sent: unknown = (request.body as Partial<Record<string, unknown>> | undefined)?._csrf;
    const token = typeof sent === 'string' ? sent : undefined;
    if (secret === null || token === undefined || !request.server.memberPages.tokens.verify(secret, token)) {
      return sendMessage(request, reply, 403, {
        title: 'Form refused',
        message: 'This form was not sent from the demo sign-in page opened in this browser, so nobody was signed in. Open it again.',
        links: [{ href: '/auth/login', text: 'Demo sign-in' }],
      });
    }
    const failed = formFailure(request);
    // A field other than the person's is the request's fault, said as on any page.
    if (failed && !Object.hasOwn(failed.errors, 'cid')) throw request.validationError!;
    const sessionId = failed === null ? await demo.signIn(request.body.cid) : null;
    if (sessionId === null) {
      return sendMessage(request, reply, 422, {
        title: 'Not a demo person',
        message: 'Only the people listed on the demo sign-in page can be signed in as; nobody was signed in.',
        links: [{ href: '/auth/login', text: 'Demo sign-in' }],
      });
    }
    // As the network's sign-in: a new session id, and whatever session the browser had is ended.
    if (request.memberSession !== null) await services.sessions.end(request.memberSession.idHash);
    clearCookie(reply, LOGIN_COOKIE);
    setSessionCookie(reply, sessionId);
    return reply.header('cache-control', 'no-store').redirect(landingOf(request.body.next), 303);
  });
};

export default demoRoutes;
