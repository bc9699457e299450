// The settings of the services Sector talks to: the network's addresses (https:, or http: on
// loopback only), the two-part settings that are both set or neither, and the public address.

export interface SignInConfig {
  /** The network's OAuth2 server (CONNECT_URL), without a trailing slash. */
  connectUrl: string;
  clientId: string;
  /** Never logged. */
  clientSecret: string;
  /** How long one call to the network may take, response included. */
  timeoutMs: number;
}

export interface NetworkConfig {
  /** The service's API base, without a trailing slash (e.g. https://atc-bookings.example/api). */
  url: string;
  /** The division's key there, sent as a bearer token. Never logged. */
  key: string;
  /** First retry delay after a failure that may pass; doubles per attempt, capped at one hour. */
  retryBaseMs: number;
  /** How long one request may take, response included. */
  timeoutMs: number;
}

/** The division's hub (contract §22): DIVISION_API names its driver. */
export interface DivisionApiConfig {
  driver: 'vateud';
  /** The hub's API base, without a trailing slash. */
  url: string;
  /** Sent as X-API-KEY. Never logged. */
  key: string;
  /** First retry delay after a failure that may pass; doubles per attempt, capped at one hour. */
  retryBaseMs: number;
  /** How long one request may take, response included. */
  timeoutMs: number;
  /** How long a live question may take (issuing a solo, the person page): 5 s; shorter only for tests. */
  questionTimeoutMs: number;
}

/** DIVISION_API (vateud, or unset: nothing is sent), DIVISION_API_KEY, DIVISION_API_URL. */
export function divisionApiConfig(
  str: (name: string, fallback: string) => string,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): DivisionApiConfig | null {
  const driver = str('DIVISION_API', '');
  const retryBaseMs = int('DIVISION_API_RETRY_BASE_MS', 5000, 1, 3_600_000);
  const timeoutMs = int('DIVISION_API_TIMEOUT_MS', 10_000, 100, 300_000);
  // A person waits for the answer: never longer than 5 s (a test may ask for less).
  const questionTimeoutMs = int('DIVISION_API_QUESTION_TIMEOUT_MS', 5000, 50, 5000);
  if (driver === '') return null;
  if (driver !== 'vateud') {
    problems.push(`DIVISION_API must be vateud or unset (got "${driver}")`);
    return null;
  }
  const key = str('DIVISION_API_KEY', '');
  if (key === '') problems.push("DIVISION_API is set but DIVISION_API_KEY is not: the hub needs the division's key");
  if (/\s/.test(key)) problems.push('DIVISION_API_KEY must not contain spaces');
  // The key travels with every request: https:, or http: on loopback only.
  const url = networkAddress('DIVISION_API_URL', str('DIVISION_API_URL', 'https://core.vateud.net/api'), problems);
  if (url === null || key === '') return null;
  return { driver, url, key, retryBaseMs, timeoutMs, questionTimeoutMs };
}

/** NETWORK_BOOKINGS_URL and NETWORK_BOOKINGS_KEY: both (sync on) or neither (off). */
export function networkConfig(
  str: (name: string, fallback: string) => string,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): NetworkConfig | null {
  const url = str('NETWORK_BOOKINGS_URL', '');
  const key = str('NETWORK_BOOKINGS_KEY', '');
  const retryBaseMs = int('NETWORK_RETRY_BASE_MS', 5000, 1, 3_600_000);
  const timeoutMs = int('NETWORK_TIMEOUT_MS', 15_000, 100, 300_000);
  if (url === '' && key === '') return null;
  if (url === '' || key === '') {
    const [set, missing] = url === '' ? ['NETWORK_BOOKINGS_KEY', 'NETWORK_BOOKINGS_URL'] : ['NETWORK_BOOKINGS_URL', 'NETWORK_BOOKINGS_KEY'];
    problems.push(`${set} is set but ${missing} is not: set both to push bookings to the network, or neither`);
    return null;
  }
  // The key travels with every request: never in clear over a network (http: on loopback only).
  const address = networkAddress('NETWORK_BOOKINGS_URL', url, problems);
  if (address === null) return null;
  if (/\s/.test(key)) problems.push('NETWORK_BOOKINGS_KEY must not contain spaces');
  return { url: address, key, retryBaseMs, timeoutMs };
}

/** Whether a host is this machine's own (127.0.0.0/8, [::1], localhost), where http: is allowed. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/**
 * A network service's address: https:, or http: on loopback only (local development and tests),
 * without query or fragment. Returns it without a trailing slash, or null after adding a problem.
 */
export function networkAddress(name: string, raw: string, problems: string[]): string | null {
  let parsed: URL | null;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = null;
  }
  const ok =
    parsed !== null &&
    (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) &&
    parsed.search === '' &&
    parsed.hash === '' &&
    parsed.username === '' &&
    parsed.password === '';
  if (!ok) {
    // A password in the address is not repeated back: the message is printed and may be logged.
    const shown = parsed === null ? raw : `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search}`;
    problems.push(
      `${name} must be an https: URL (http: only on 127.0.0.1, [::1] or localhost), without query, user or password (got "${shown}")`,
    );
    return null;
  }
  return raw.replace(/\/+$/, '');
}

/** PUBLIC_URL: the http: or https: origin people use (Sector is served at its root); default http://HOST:PORT. */
export function publicUrl(raw: string, host: string, port: number, problems: string[]): string {
  if (raw === '') {
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }
  let parsed: URL | null;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = null;
  }
  if (
    parsed === null ||
    (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
    parsed.pathname !== '/' ||
    parsed.search !== '' ||
    parsed.hash !== '' ||
    parsed.username !== '' ||
    parsed.password !== ''
  ) {
    problems.push(
      `PUBLIC_URL must be the http: or https: address people use, without a path, e.g. https://bookings.example.org (got "${raw}")`,
    );
    return raw;
  }
  return raw.replace(/\/+$/, '');
}

/** CONNECT_CLIENT_ID and CONNECT_CLIENT_SECRET: both (sign-in on) or neither (off). */
export function signInConfig(
  str: (name: string, fallback: string) => string,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): SignInConfig | null {
  const clientId = str('CONNECT_CLIENT_ID', '');
  const clientSecret = str('CONNECT_CLIENT_SECRET', '');
  const connectUrl = networkAddress('CONNECT_URL', str('CONNECT_URL', 'https://auth.vatsim.net'), problems);
  const timeoutMs = int('CONNECT_TIMEOUT_MS', 10_000, 100, 300_000);
  if (clientId === '' && clientSecret === '') return null;
  if (clientId === '' || clientSecret === '') {
    const [set, missing] =
      clientId === '' ? ['CONNECT_CLIENT_SECRET', 'CONNECT_CLIENT_ID'] : ['CONNECT_CLIENT_ID', 'CONNECT_CLIENT_SECRET'];
    problems.push(`${set} is set but ${missing} is not: set both to let members sign in, or neither`);
    return null;
  }
  if (connectUrl === null) return null;
  return { connectUrl, clientId, clientSecret, timeoutMs };
}

export interface MailConfig {
  /** smtp://user:pass@host:port or smtps://… (SMTP_URL). Never logged: it may carry a password. */
  url: string;
  /** The sender (MAIL_FROM): an address, or `Name <address>`. */
  from: string;
  /** First retry delay after a failed attempt; doubles per attempt, capped at an hour. */
  retryBaseMs: number;
  /** One attempt, from connecting to the end of the response, must end within this. */
  timeoutMs: number;
}

/** SMTP_URL and MAIL_FROM: both (students are mailed) or neither (nothing is sent). */
export function mailConfig(
  str: (name: string, fallback: string) => string,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): MailConfig | null {
  const url = str('SMTP_URL', '');
  const from = str('MAIL_FROM', '');
  const retryBaseMs = int('MAIL_RETRY_BASE_MS', 60_000, 1, 3_600_000);
  const timeoutMs = int('MAIL_TIMEOUT_MS', 30_000, 100, 300_000);
  if (url === '' && from === '') return null;
  if (url === '' || from === '') {
    problems.push(
      `${url === '' ? 'MAIL_FROM' : 'SMTP_URL'} is set but ${url === '' ? 'SMTP_URL' : 'MAIL_FROM'} is not: set both to send mail, or neither`,
    );
    return null;
  }
  let parsed: URL | null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  // The URL is not echoed: it may carry the mail server's password.
  if (parsed === null || (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') || !parsed.hostname) {
    problems.push('SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…');
  }
  const address = /<([^<>\s]+@[^<>\s]+)>$/.exec(from)?.[1] ?? from;
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(address) || /[\r\n\u0000-\u001f]/.test(from)) {
    problems.push('MAIL_FROM must be an e-mail address, or a name and an address: Sector <sector@example.org>');
  }
  return { url, from, retryBaseMs, timeoutMs };
}
