// Signing members in with the network's account (contract §14, docs/sign-in.md): the way to the
// network and back. Nothing is stored unless the whole sign-in succeeds.
import type { SignInConfig } from '../../config.js';
import { parseNetworkProfile, landingOf, signInRefusedFor } from './domain.js';
import { ConnectClient, ConnectError } from './connect.js';
import type { SessionsService } from './sessions.service.js';
import type { Deps } from '../../app/deps.js';

export { ConnectError } from './connect.js';
export { type ActiveSession, type Member, SessionsService } from './sessions.service.js';

/** Why a sign-in did not succeed, in words for the member. */
export interface SignInProblem {
  kind: 'consent' | 'state' | 'network' | 'profile' | 'rating';
  message: string;
}

/** What the callback gave: the query of GET /auth/callback. */
export interface CallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}

export type SignInResult = { ok: true; sessionId: string; next: string } | { ok: false; problem: SignInProblem };

const STATE_PROBLEMS = {
  missing: 'The response from the network did not say which sign-in it belongs to.',
  unknown: 'This sign-in was already used or is not known here. Sign-ins can be used once only.',
  expired: 'This sign-in took longer than ten minutes and has expired.',
  'other-browser': 'This sign-in was started in another browser (or its cookies were cleared meanwhile).',
} as const;

/** Callback parameters are the network's, but anything may arrive: keep what is plausible. */
const param = (v: unknown, max = 2048): string | null => (typeof v === 'string' && v !== '' && v.length <= max ? v : null);

export class SignInService {
  private readonly connect: ConnectClient;

  private readonly sessions: SessionsService;

  constructor({ config, http, signIn, sessions }: Deps<'config' | 'http'> & { signIn: SignInConfig; sessions: SessionsService }) {
    this.sessions = sessions;
    this.connect = new ConnectClient(signIn, `${config.publicUrl}/auth/callback`, http);
  }

  /** Starts a sign-in: where to send the browser, and the value of its sign-in cookie. */
  async start(next: unknown): Promise<{ location: string; browserToken: string }> {
    const codeVerifier = ConnectClient.newCodeVerifier();
    const { state, browserToken } = await this.sessions.beginLogin(codeVerifier, landingOf(next));
    return { location: await this.connect.authorizationUrl(state, codeVerifier), browserToken };
  }

  /** Finishes a sign-in when the network sends the browser back. */
  async finish(query: CallbackQuery, browserToken: string | null): Promise<SignInResult> {
    const refuse = (kind: SignInProblem['kind'], message: string): SignInResult => ({ ok: false, problem: { kind, message } });
    const state = param(query.state, 256);
    // Consumed first, whatever the response: a state is used once, also by a refusal.
    const consumed = state === null ? null : await this.sessions.consumeLogin(state, browserToken);
    if (param(query.error) !== null) {
      return refuse(
        'consent',
        query.error === 'access_denied' ? 'You did not allow the sign-in at the network.' : 'The network did not sign you in.',
      );
    }
    if (consumed === null) return refuse('state', STATE_PROBLEMS.missing);
    if (!consumed.ok) return refuse('state', STATE_PROBLEMS[consumed.problem]);
    const code = param(query.code);
    if (code === null) return refuse('network', 'The network sent you back without a sign-in code.');

    let body: unknown;
    try {
      body = await this.connect.profile(new URLSearchParams({ code, state: state! }), consumed.codeVerifier);
    } catch (err) {
      if (err instanceof ConnectError) return refuse('network', `Signing in failed: ${err.message}.`);
      throw err;
    }
    const profile = parseNetworkProfile(body);
    if (profile === null) return refuse('profile', 'Signing in failed: the network responded with something unexpected about you.');
    const refusal = signInRefusedFor(profile.rating);
    if (refusal !== null) return refuse('rating', refusal);
    return { ok: true, sessionId: await this.sessions.signIn(profile), next: consumed.next };
  }
}
