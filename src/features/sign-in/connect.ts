// The network's OAuth2 service (VATSIM Connect): the authorization-code flow with PKCE, through
// oauth4webapi. Every call has a timeout, follows no redirect and reads a bounded response. The
// access token is used once, to read the member's profile, and never kept.
import * as oauth from 'oauth4webapi';
import type { SignInConfig } from '../../config.js';
import { type HttpClient, HttpRequestError } from '../../core/http-client.js';

/** The scopes Sector asks for: names, e-mail, and ratings and membership. */
export const CONNECT_SCOPE = 'full_name email vatsim_details';

/** Largest response read from the network (tokens and a profile are a few kilobytes). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** A call to the network failed: unreachable, too slow, refused, or a response that is not one. */
export class ConnectError extends Error {
  constructor(
    message: string,
    /** The network's own error code (e.g. invalid_grant), when it gave one. */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export class ConnectClient {
  private readonly as: oauth.AuthorizationServer;
  private readonly client: oauth.Client;
  private readonly auth: oauth.ClientAuth;
  private readonly fetch: (url: string, init: RequestInit) => Promise<Response>;

  constructor(
    private readonly config: SignInConfig,
    /** ${PUBLIC_URL}/auth/callback, as registered with the network. */
    readonly redirectUri: string,
    http: HttpClient,
  ) {
    this.fetch = http.fetcher({ timeoutMs: config.timeoutMs, maxBytes: MAX_RESPONSE_BYTES });
    this.as = {
      issuer: config.connectUrl,
      authorization_endpoint: `${config.connectUrl}/oauth/authorize`,
      token_endpoint: `${config.connectUrl}/oauth/token`,
    };
    this.client = { client_id: config.clientId };
    // The network takes client_id and client_secret in the token request's form body.
    this.auth = oauth.ClientSecretPost(config.clientSecret);
  }

  static newCodeVerifier(): string {
    return oauth.generateRandomCodeVerifier();
  }

  /** Where the member's browser is sent to sign in and consent. */
  async authorizationUrl(state: string, codeVerifier: string): Promise<string> {
    const url = new URL(this.as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.config.clientId,
      redirect_uri: this.redirectUri,
      scope: CONNECT_SCOPE,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  private options() {
    return {
      [oauth.customFetch]: this.fetch,
      // Plain http: only ever on loopback addresses (local development and tests): config.ts refuses it elsewhere.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      [oauth.allowInsecureRequests]: this.config.connectUrl.startsWith('http:'),
    };
  }

  /** Exchanges the code for a token and returns GET /api/user's JSON as it is (the caller checked the state). */
  async profile(callback: URLSearchParams, codeVerifier: string): Promise<unknown> {
    try {
      const params = oauth.validateAuthResponse(this.as, this.client, callback, oauth.skipStateCheck);
      const tokenResponse = await oauth.authorizationCodeGrantRequest(
        this.as,
        this.client,
        this.auth,
        params,
        this.redirectUri,
        codeVerifier,
        this.options(),
      );
      const token = await oauth.processAuthorizationCodeResponse(this.as, this.client, tokenResponse);
      const userResponse = await oauth.protectedResourceRequest(
        token.access_token,
        'GET',
        new URL(`${this.config.connectUrl}/api/user`),
        new Headers({ accept: 'application/json' }),
        null,
        this.options(),
      );
      if (userResponse.status !== 200) throw new ConnectError(`the network responded with ${userResponse.status} when asked who you are`);
      return await userResponse.json();
    } catch (err) {
      throw describe(err);
    }
  }
}

/** One short sentence for the member and the log, without tokens or secrets. */
function describe(err: unknown): ConnectError {
  if (err instanceof ConnectError) return err;
  if (err instanceof HttpRequestError) {
    const { reason } = err.failure;
    if (reason === 'timeout') return new ConnectError('the network did not respond in time');
    if (reason === 'too-large') return new ConnectError('the network responded with more than expected');
    return new ConnectError('the network could not be reached');
  }
  if (err instanceof oauth.ResponseBodyError) return new ConnectError(`the network refused the sign-in (${err.error})`, err.error);
  if (err instanceof oauth.AuthorizationResponseError) return new ConnectError(`the network refused the sign-in (${err.error})`, err.error);
  if (err instanceof SyntaxError) return new ConnectError('the network responded with something that is not JSON');
  if (err instanceof oauth.OperationProcessingError || err instanceof oauth.WWWAuthenticateChallengeError) {
    return new ConnectError('the network responded with something unexpected');
  }
  return new ConnectError('the network could not be reached');
}
