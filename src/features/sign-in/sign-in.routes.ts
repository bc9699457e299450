// Signing members in with the network's account (contract §14, docs/sign-in.md):
// GET /auth/login, GET /auth/callback and POST /auth/logout. Pages, not API: responses are HTML.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendMessage, signInPath } from '../../core/web/pages.js';
import { clearCookie, clearSessionCookie, LOGIN_COOKIE, setSessionCookie, setSignedCookie, signedCookie } from './member-session.plugin.js';
import { signInCallback, signInPage, signOutForm } from './sign-in.schema.js';
import type { RouteServices } from '../../app/services.js';
import demoRoutes from './demo.routes.js';

const LOGIN_MAX_AGE_S = 10 * 60;

const authRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const signIn = services.signIn;
  const unavailable = (request: FastifyRequest, reply: FastifyReply) =>
    sendMessage(request, reply, 404, { title: 'Not available', message: 'Signing in is not set up on this site.' });

  // npm run demo: its own sign-in instead of the network's (a normal start never registers it).
  if (services.demoSignIn !== null) await app.register(demoRoutes, { services, demo: services.demoSignIn });
  else registerNetworkSignIn();

  function registerNetworkSignIn() {
    app.get('/auth/login', { schema: signInPage }, async (request, reply) => {
      if (signIn === null) return unavailable(request, reply);
      const { location, browserToken } = await signIn.start(request.query.next);
      // Path=/ (not /auth/callback): the `__Host-` prefix it gets under https requires it.
      setSignedCookie(reply, LOGIN_COOKIE, browserToken, LOGIN_MAX_AGE_S);
      return reply.header('cache-control', 'no-store').redirect(location, 302);
    });

    app.get('/auth/callback', { schema: signInCallback }, async (request, reply) => {
      if (signIn === null) return unavailable(request, reply);
      const q = request.query;
      const result = await signIn.finish({ code: q.code, state: q.state, error: q.error }, signedCookie(request, LOGIN_COOKIE));
      clearCookie(reply, LOGIN_COOKIE);
      if (!result.ok) {
        const refused = result.problem.kind === 'rating';
        return sendMessage(request, reply, 400, {
          title: refused ? 'Sign-in refused' : 'Sign-in failed',
          message: result.problem.message,
          links: refused
            ? [{ href: '/', text: 'Back to the schedule' }]
            : [
                { href: signInPath('/'), text: 'Try again' },
                { href: '/', text: 'Back to the schedule' },
              ],
        });
      }
      // A new session id at every sign-in: whatever session the browser had before is ended, so a
      // session id planted before the sign-in never becomes a signed-in one.
      if (request.memberSession !== null) await services.sessions.end(request.memberSession.idHash);
      setSessionCookie(reply, result.sessionId);
      return reply.header('cache-control', 'no-store').redirect(result.next, 303);
    });
  }

  // The public pages' guard checks a signed-in member's token; signed out, there is nothing to end and no token to check.
  app.post('/auth/logout', { schema: signOutForm }, async (request, reply) => {
    if (request.memberSession !== null) await services.sessions.end(request.memberSession.idHash);
    clearSessionCookie(reply);
    return reply.header('cache-control', 'no-store').redirect('/', 303);
  });
};

export default authRoutes;
