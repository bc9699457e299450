// A stand-in for the network's OAuth2 service, VATSIM Connect, following its published API
// (vatsimnetwork/vatsim.dev openapi/connect.yaml) and how the real service responds:
// - GET /oauth/authorize?response_type=code&client_id&redirect_uri&scope&state&code_challenge…
//   asks the member (here: replies at once) and redirects to redirect_uri with ?code&state, or with
//   ?error=access_denied&error_description… when consent is refused;
// - POST /oauth/token (form: grant_type=authorization_code, client_id, client_secret, redirect_uri,
//   code, code_verifier) → {token_type: "Bearer", expires_in, access_token, refresh_token, scopes};
//   400 {error, error_description, message, hint} for a wrong client, code, redirect or verifier;
// - GET /api/user (Authorization: Bearer) → {"data": {cid, personal, vatsim, oauth}} (the real
//   service wraps the user in `data`; the published schema does not show it).
// A real HTTP server on 127.0.0.1, with failures to choose.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

export interface ConnectUser {
  cid: string;
  personal: { name_first: string; name_last: string; name_full?: string; email: string };
  vatsim: {
    rating: { id: number; short: string; long?: string };
    pilotrating?: { id: number; short: string; long?: string };
    region: { id: string | null; name?: string | null };
    division: { id: string | null; name?: string | null };
    subdivision: { id: string | null; name?: string | null };
  };
}

/** What the stand-in does wrong on purpose. */
export interface ConnectFailures {
  /** The token endpoint returns this status (400 with invalid_grant, else a server error page). */
  tokenStatus?: number;
  /** The token endpoint never responds. */
  tokenHangs?: boolean;
  /** GET /api/user returns this body (raw) instead of the user. */
  userBody?: string;
  /** GET /api/user returns this status. */
  userStatus?: number;
}

export interface ConnectStandIn {
  /** CONNECT_URL. */
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the next authorization (and who consents). */
  setUser(user: ConnectUser): void;
  /** Whether the next authorizations are refused by the member. */
  setConsent(allowed: boolean): void;
  setFailures(f: ConnectFailures): void;
  /** The query of each authorization request, in order. */
  authorizations: URLSearchParams[];
  /** The form of each token request, in order. */
  tokenRequests: URLSearchParams[];
  /** Bearer tokens GET /api/user was called with. */
  userRequests: string[];
  close(): Promise<void>;
}

export function connectUser(cid: number, rating: { id: number; short: string }, extra: Partial<ConnectUser['personal']> = {}): ConnectUser {
  return {
    cid: String(cid),
    personal: { name_first: 'Web', name_last: `Member${cid}`, name_full: `Web Member${cid}`, email: `${cid}@example.org`, ...extra },
    vatsim: {
      rating: { ...rating, long: rating.short },
      pilotrating: { id: 0, short: 'NEW', long: 'Basic Member' },
      region: { id: 'EMEA', name: 'Europe, Middle East and Africa' },
      division: { id: 'EUD', name: 'Europe (except UK)' },
      subdivision: { id: 'SCA', name: 'Scandinavia' },
    },
  };
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  method: string | null;
  user: ConnectUser;
  used: boolean;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const oauthError = (res: http.ServerResponse, status: number, error: string, description: string) =>
  json(res, status, { error, error_description: description, hint: '', message: description });

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

export async function startConnectStandIn(): Promise<ConnectStandIn> {
  const clientId = '123';
  const clientSecret = randomBytes(20).toString('hex');
  let user = connectUser(1000001, { id: 3, short: 'S2' });
  let consent = true;
  let failures: ConnectFailures = {};
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, ConnectUser>();
  const authorizations: URLSearchParams[] = [];
  const tokenRequests: URLSearchParams[] = [];
  const userRequests: string[] = [];

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
        const q = url.searchParams;
        authorizations.push(q);
        const redirectUri = q.get('redirect_uri');
        if (q.get('client_id') !== clientId) return oauthError(res, 401, 'invalid_client', 'Client authentication failed');
        if (q.get('response_type') !== 'code' || redirectUri === null)
          return oauthError(res, 400, 'invalid_request', 'The request is missing a required parameter');
        const back = new URL(redirectUri);
        const state = q.get('state');
        if (!consent) {
          back.searchParams.set('error', 'access_denied');
          back.searchParams.set('error_description', 'The resource owner or authorization server denied the request.');
          back.searchParams.set('hint', 'The user denied the request');
          back.searchParams.set('message', 'The resource owner or authorization server denied the request.');
        } else {
          const code = randomBytes(24).toString('hex');
          grants.set(code, {
            clientId,
            redirectUri,
            challenge: q.get('code_challenge'),
            method: q.get('code_challenge_method'),
            user,
            used: false,
          });
          back.searchParams.set('code', code);
        }
        if (state !== null) back.searchParams.set('state', state);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/oauth/token') {
        const form = new URLSearchParams(await readBody(req));
        tokenRequests.push(form);
        if (failures.tokenHangs) return; // never responds
        if (failures.tokenStatus === 400) return oauthError(res, 400, 'invalid_grant', 'The authorization code is invalid');
        if (failures.tokenStatus !== undefined) {
          res.writeHead(failures.tokenStatus, { 'content-type': 'text/html' });
          return res.end('<html><body>Server Error</body></html>');
        }
        if (form.get('grant_type') !== 'authorization_code')
          return oauthError(res, 400, 'unsupported_grant_type', 'The authorization grant type is not supported');
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
          return oauthError(res, 401, 'invalid_client', 'Client authentication failed');
        const grant = grants.get(form.get('code') ?? '');
        if (grant === undefined || grant.used) return oauthError(res, 400, 'invalid_grant', 'Authorization code has been revoked');
        grant.used = true;
        if (form.get('redirect_uri') !== grant.redirectUri)
          return oauthError(res, 400, 'invalid_grant', 'Authorization code was not issued to this redirect URI');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (grant.method !== 'S256' || grant.challenge !== challenge)
          return oauthError(res, 400, 'invalid_grant', 'Failed to verify `code_verifier`.');
        const accessToken = randomBytes(32).toString('hex');
        tokens.set(accessToken, grant.user);
        return json(res, 200, {
          token_type: 'Bearer',
          expires_in: 604800,
          access_token: accessToken,
          refresh_token: randomBytes(32).toString('hex'),
          scopes: ['full_name', 'email', 'vatsim_details'],
        });
      }
      if (req.method === 'GET' && url.pathname === '/api/user') {
        const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
        const who = m ? tokens.get(m[1]!) : undefined;
        if (m) userRequests.push(m[1]!);
        if (who === undefined) return json(res, 401, { message: 'Unauthenticated.' });
        if (failures.userStatus !== undefined)
          return json(res, failures.userStatus, { error_code: 'VSO1', log_code: 'SSO1', error: 'Invalid client' });
        if (failures.userBody !== undefined) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(failures.userBody);
        }
        return json(res, 200, { data: { ...who, oauth: { token_valid: 'true' } } });
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"Not Found"}');
    })();
  });
  const listening = await listenOnLoopback(server);
  const { port } = listening;
  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    setUser: (u) => (user = u),
    setConsent: (allowed) => (consent = allowed),
    setFailures: (f) => (failures = f),
    authorizations,
    tokenRequests,
    userRequests,
    close: () => listening.close(),
  };
}
