// The members' vote pages (contract §23): GET /votes, GET /votes/{id} and POST /votes/{id} (the
// ballot). A second ballot is refused by the database: the 409 page "You have already voted".
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { formFailure, pathFailed } from '../../core/web/forms.js';
import { accountView, csrfField, sendMessage, sendPage } from '../../core/web/pages.js';
import { ballotForm, votePage as voteSchema, votesPage as listSchema } from './votes.schema.js';
import { votePage, votesPage } from './views/member-votes-page.js';
import { AlreadyVotedError } from './votes.service.js';
import type { RouteServices } from '../../app/services.js';

const form = { attachValidation: true } as const;
const BACK = [
  { href: '/votes', text: 'Votes' },
  { href: '/my', text: 'My page' },
];

const voteMemberRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const frameOf = (request: FastifyRequest) => ({
    siteName: services.config.siteName,
    assets: request.server.memberPages.assets,
    account: accountView(request),
    csrf: csrfField(request),
  });
  const noSuchVote = (request: FastifyRequest, reply: FastifyReply) =>
    sendMessage(request, reply, 404, { title: 'No such vote', message: 'There is no such vote.', links: BACK });

  async function sendVote(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    status: number,
    error: string | null,
    notice: string | null,
  ) {
    const vote = await services.votes.one(id, request.member!.cid);
    if (!vote) return noSuchVote(request, reply);
    if (!vote.admin && !vote.voted && vote.reason !== null)
      return sendMessage(request, reply, 403, { title: 'Not allowed', message: vote.reason, links: BACK });
    return sendPage(reply, status, votePage({ ...frameOf(request), vote, error, notice }));
  }

  app.get('/votes', { schema: listSchema }, async (request, reply) =>
    sendPage(reply, 200, votesPage({ ...frameOf(request), votes: await services.votes.forMember(request.member!.cid) })),
  );

  app.get('/votes/:id', { schema: voteSchema, ...form }, (request, reply) => {
    if (pathFailed(request)) return noSuchVote(request, reply);
    return sendVote(request, reply, request.params.id, 200, null, request.query.done === 'voted' ? 'Your vote has been counted.' : null);
  });

  app.post('/votes/:id', { schema: ballotForm, ...form }, async (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return noSuchVote(request, reply);
    const { id } = request.params;
    if (failed) return sendVote(request, reply, id, 422, 'Choose one of the options.', null);
    try {
      await services.votes.cast(id, request.body.option, request.member!.cid);
      return await reply.redirect(`/votes/${id}?done=voted`, 303);
    } catch (err) {
      if (err instanceof AlreadyVotedError)
        return sendMessage(request, reply, 409, { title: 'Already voted', message: 'You have already voted in this vote.', links: BACK });
      if (err instanceof ValidationError) return sendVote(request, reply, id, 422, 'Choose one of the options.', null);
      if (err instanceof ConflictError)
        return sendMessage(request, reply, 409, { title: 'Vote closed', message: err.message, links: BACK });
      if (err instanceof ForbiddenError)
        return sendMessage(request, reply, 403, { title: 'Not allowed', message: err.message, links: BACK });
      if (err instanceof NotFoundError) return noSuchVote(request, reply);
      throw err;
    }
  });
};

export default voteMemberRoutes;
