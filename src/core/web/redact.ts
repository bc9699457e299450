// Credentials a client puts into a URL (a key as ?api_key=, a token in the path) are kept out of
// the log. Clients should send keys in the Authorization header, which is never logged; some put
// them in the URL anyway, and a refused request is logged like any other.

const REDACTED = '[redacted]';

/** A query parameter whose name says it holds a credential: api_key, apikey, key, token, access_token, client_secret, password… */
const CREDENTIAL_NAME =
  /(?:key|token|secret|passw(?:or)?d|pwd|auth|authorization|bearer|credentials?|session|sessionid|jwt|signature|sig|csrf)s?$|^(?:code|state)$/i;

/** A Sector token: its id is kept (it tells an operator whose key leaked), its secret is not. */
const TOKEN = /sector_([0-9a-f]{16})_[A-Za-z0-9_-]*/gi;
/** A one-time link's token (`slk_…`, a training's link): all of it is the secret. */
const LINK_TOKEN = /slk_[A-Za-z0-9_-]+/g;
const LINK_TOKEN_IN_LINE = /slk(?:_|%5F)[A-Za-z0-9_%-]+/gi;

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The name of a query parameter as the application reads it: decoded, without array brackets. */
const parameterName = (raw: string) => decode(raw).replace(/\[[^\]]*\]$/, '');

/** Token-shaped text replaced, also when percent-encoded (then the part is logged decoded). */
function withoutTokens(part: string): string {
  const replaced = (text: string) => text.replace(TOKEN, `sector_$1_${REDACTED}`).replace(LINK_TOKEN, `slk_${REDACTED}`);
  const plain = replaced(part);
  if (!plain.includes('%')) return plain;
  const decoded = decode(plain);
  return replaced(decoded) !== decoded ? replaced(decoded) : plain;
}

/** A request URL fit for the log: credential parameters' values and token-shaped text replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1 && !/sector|slk/i.test(url)) return url;
  const path = withoutTokens(q === -1 ? url : url.slice(0, q));
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq !== -1 && CREDENTIAL_NAME.test(parameterName(part.slice(0, eq)))) return `${part.slice(0, eq)}=${REDACTED}`;
      return withoutTokens(part);
    })
    .join('&');
  return `${path}?${query}`;
}

// The same rules over a whole log line, for URLs that reach the log inside a message (a warning
// that quotes the request's URL) rather than as a request's url.
const TOKEN_IN_LINE = /sector(?:_|%5F)([0-9a-f]{16})(?:_|%5F)[A-Za-z0-9_%-]*/gi;
const PARAMETER_IN_LINE =
  /([?&][^=&?#\s"\\]*?(?:key|token|secret|passw(?:or)?d|pwd|auth|authorization|bearer|credentials?|session|sessionid|jwt|signature|sig|csrf)s?(?:\[\]|%5B%5D)?=)[^&#\s"\\]*/gi;
/** A sign-in's callback (/auth/callback?code=…&state=…) carries the network's one-time code. */
const SIGN_IN_PARAMETER_IN_LINE = /([?&](?:code|state)=)[^&#\s"\\]*/gi;

/** A serialised log line with credentials in any URL it quotes replaced (pino's streamWrite hook). */
export function scrubCredentials(line: string): string {
  return line
    .replace(TOKEN_IN_LINE, `sector_$1_${REDACTED}`)
    .replace(LINK_TOKEN_IN_LINE, `slk_${REDACTED}`)
    .replace(PARAMETER_IN_LINE, `$1${REDACTED}`)
    .replace(SIGN_IN_PARAMETER_IN_LINE, `$1${REDACTED}`);
}
