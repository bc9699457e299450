// Signing members in with the network's account (contract §14, docs/sign-in.md):
// GET /auth/login, GET /auth/callback and POST /auth/logout. Pages, not API: answers are HTML.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { checkCsrf, sendMessage, signInPath } from '../../http/member-pages.js';
import { clearSessionCookie, LOGIN_COOKIE, sessionIdOf, setSessionCookie } from '../../plugins/member-session.js';
import type { RouteServices } from '../../services/index.js';

const LOGIN_MAX_AGE_S = 10 * 60;

const firstOf = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;

/** Public page routes: rate limited like the public GETs, never documented as API. */
const PAGE = { config: { auth: 'public' as const, page: true }, schema: { hide: true } };

const authRoutes: FastifyPluginAsync<{ services: RouteServices }> = async (app, { services }) => {
  const signIn = services.signIn;
  const secure = services.config.publicUrl.startsWith('https:');
  const unavailable = (request: FastifyRequest, reply: FastifyReply) =>
    sendMessage(request, reply, 404, { title: 'Not available', message: 'Signing in is not set up on this site.' });

  app.get('/auth/login', PAGE, async (request, reply) => {
    if (signIn === null) return unavailable(request, reply);
    const { location, browserToken } = await signIn.start(firstOf((request.query as Record<string, unknown>).next));
    reply.setCookie(LOGIN_COOKIE, browserToken, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/auth/callback',
      maxAge: LOGIN_MAX_AGE_S,
    });
    return reply.header('cache-control', 'no-store').redirect(location, 302);
  });

  app.get('/auth/callback', PAGE, async (request, reply) => {
    if (signIn === null) return unavailable(request, reply);
    const q = request.query as Record<string, unknown>;
    request.cookies = app.parseCookie(request.headers.cookie ?? '');
    const result = await signIn.finish(
      { code: firstOf(q.code), state: firstOf(q.state), error: firstOf(q.error) },
      sessionIdOf(request, LOGIN_COOKIE),
    );
    reply.clearCookie(LOGIN_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/auth/callback' });
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
    setSessionCookie(reply, result.sessionId, secure);
    return reply.header('cache-control', 'no-store').redirect(result.next, 303);
  });

  app.post(
    '/auth/logout',
    { ...PAGE, preHandler: async (request, reply) => (request.member === null ? undefined : checkCsrf.call(app, request, reply)) },
    async (request, reply) => {
      if (request.memberSession !== null) await services.sessions.end(request.memberSession.idHash);
      clearSessionCookie(reply, secure);
      return reply.header('cache-control', 'no-store').redirect('/', 303);
    },
  );
};

export default authRoutes;
