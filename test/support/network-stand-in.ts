// A stand-in for the network's ATC bookings service (vatsimnetwork/atc-bookings), following its
// API as its source has it: routes under /api, bearer keys, the same validation rules and response
// shapes (a 422 is a bare {"field": ["message"]} object, an unknown id on PUT/DELETE a 404 with
// `[]`, DELETE a 204). Plain node:http, started by the tests, with controls to slow it down,
// take it down, and count what it was sent.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface StandInKey {
  token: string;
  division?: string | null;
  subdivision?: string | null;
}

export interface StoredBooking {
  id: number;
  api_key_id: number;
  callsign: string;
  cid: number | string;
  type: string;
  start: string;
  end: string;
  division: string | null;
  subdivision: string | null;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  body: unknown;
  authorization: string | undefined;
}

export interface OverrideResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  handled?: boolean;
}

/** up: responds; refuse: not listening (connections are refused); unavailable: every request gets 503. */
export type StandInMode = 'up' | 'refuse' | 'unavailable';

export interface NetworkStandIn {
  /** The API base, as NETWORK_BOOKINGS_URL takes it (…/api). */
  url: string;
  bookings: Map<number, StoredBooking>;
  requests: ReceivedRequest[];
  /** Requests responded to so far, by method (GET, POST, PUT, DELETE). */
  count(method: string): number;
  setMode(mode: StandInMode): Promise<void>;
  /** Respond this long after handling a request (the change is stored at once). */
  setDelay(ms: number): void;
  /**
   * Responds to requests this function returns a response for with that response instead, without
   * handling them (with `handled`, after handling them: a create is stored, its response replaced);
   * null restores the ordinary responses. `body` is sent as it is.
   */
  respondWith(override: ((method: string, path: string) => OverrideResponse | undefined) | null): void;
  addKey(key: StandInKey): void;
  close(): Promise<void>;
}

const SUFFIXES = ['_DEL', '_GND', '_TWR', '_APP', '_DEP', '_CTR', '_FSS'];
/** The service's code; its published OpenAPI says `mentoring`, which the code refuses. */
const TYPES = ['booking', 'event', 'exam', 'training'];
const FIELDS = ['id', 'callsign', 'cid', 'type', 'start', 'end', 'division', 'subdivision'] as const;

type Body = Record<string, unknown>;
type Errors = Partial<Record<string, string[]>>;

const present = (v: unknown) => v !== undefined && v !== null && v !== '';
const isNumeric = (v: unknown) =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v));

/** Laravel's date_format:Y-m-d H:i:s (a real date, exactly that shape). */
function isYmdHis(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60 && s < 60;
}

function validate(body: Body, creating: boolean): Errors {
  const errors: Errors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const { callsign, cid, start, end, division, subdivision, type } = body;
  if (creating || present(callsign)) {
    if (!present(callsign)) add('callsign', 'The callsign field is required.');
    else if (typeof callsign !== 'string' || !/^[\p{L}\p{M}\p{N}_-]+$/u.test(callsign))
      add('callsign', 'The callsign must only contain letters, numbers, dashes and underscores.');
    else if (!SUFFIXES.some((s) => callsign.endsWith(s)))
      add('callsign', `The callsign must end with one of the following: ${SUFFIXES.join(', ')}.`);
  }
  if (creating && !present(cid)) add('cid', 'The cid field is required.');
  else if (present(cid) && !isNumeric(cid)) add('cid', 'The cid must be a number.');
  for (const [field, value, other] of [
    ['start', start, end],
    ['end', end, start],
  ] as const) {
    if (creating && !present(value)) add(field, `The ${field} field is required.`);
    else if (!creating && !present(value) && present(other))
      add(field, `The ${field} field is required when ${field === 'start' ? 'end' : 'start'} is present.`);
    else if (present(value) && !isYmdHis(value)) add(field, `The ${field} must be formatted as yyyy-mm-dd hh:mm:ss`);
  }
  if (isYmdHis(start) && isYmdHis(end) && !(end > start)) add('end', 'The end must be after the start');
  if (present(division) && (typeof division !== 'string' || !/^\p{L}+$/u.test(division)))
    add('division', 'The division must only contain letters.');
  if (!present(division) && present(subdivision)) add('division', 'The division field is required when subdivision is present.');
  if (present(subdivision) && (typeof subdivision !== 'string' || !/^\p{L}+$/u.test(subdivision)))
    add('subdivision', 'The subdivision must only contain letters.');
  if (type !== undefined && !TYPES.includes(type as string)) add('type', 'The selected type is invalid.');
  return errors;
}

const pick = (b: StoredBooking) => Object.fromEntries(FIELDS.map((f) => [f, b[f]]));

export async function startNetworkStandIn(keys: StandInKey[] = []): Promise<NetworkStandIn> {
  const keyIds = new Map<string, { id: number; key: StandInKey }>();
  const addKey = (key: StandInKey) => keyIds.set(key.token, { id: keyIds.size + 1, key });
  keys.forEach(addKey);
  const bookings = new Map<number, StoredBooking>();
  const requests: ReceivedRequest[] = [];
  const counts = new Map<string, number>();
  let nextId = 1;
  let mode: StandInMode = 'up';
  let delay = 0;
  let override: Parameters<NetworkStandIn['respondWith']>[0] = null;
  const sockets = new Set<Socket>();

  const overlapping = (callsign: unknown, start: unknown, end: unknown, exceptId?: number) =>
    [...bookings.values()].find(
      (b) =>
        b.id !== exceptId &&
        b.callsign === callsign &&
        typeof start === 'string' &&
        typeof end === 'string' &&
        b.end > start &&
        b.start < end,
    );

  function handle(
    method: string,
    path: string,
    query: URLSearchParams,
    body: Body,
    token: string | undefined,
  ): { status: number; json?: unknown } {
    const m = /^\/api\/booking(?:\/([^/]+))?$/.exec(path);
    if (!m) return { status: 404, json: { message: 'Not Found' } };
    const id = m[1];
    const key = token === undefined ? undefined : keyIds.get(token);
    // The list takes an optional key; every other route needs one.
    if (token !== undefined && !key) return { status: 401, json: { error: 'Token does not exist' } };
    if (id === undefined && method === 'GET') {
      const keyOnly = ['1', 'true'].includes(query.get('key_only') ?? '');
      if (keyOnly && !key) return { status: 401, json: { message: 'Unable to Authenticate' } };
      const now = new Date().toISOString().replace('T', ' ').slice(0, 19);
      let list = [...bookings.values()];
      if (keyOnly) list = list.filter((b) => b.api_key_id === key!.id);
      const callsigns = query.get('callsign');
      if (callsigns !== null) list = list.filter((b) => callsigns.split(',').some((c) => b.callsign.includes(c)));
      const cid = query.get('cid');
      if (cid !== null) list = list.filter((b) => String(b.cid) === cid);
      const date = query.get('date');
      list =
        date !== null
          ? list.filter((b) => b.start.startsWith(date))
          : list.filter((b) => b.start.slice(0, 10) >= now.slice(0, 10) || b.end > now);
      return { status: 200, json: list.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0)).map(pick) };
    }
    if (!key) return { status: 401, json: { error: 'Missing Bearer Token' } };
    if (id === undefined) {
      if (method !== 'POST') return { status: 405, json: { message: 'Method Not Allowed' } };
      const errors = validate(body, true);
      const clash = overlapping(body.callsign, body.start, body.end);
      if (clash) (errors.callsign ??= []).push(`Booking overlaps with an existing booking: ${clash.id}`);
      if (Object.keys(errors).length > 0) return { status: 422, json: errors };
      const booking: StoredBooking = {
        id: nextId++,
        api_key_id: key.id,
        callsign: body.callsign as string,
        cid: body.cid as number,
        type: (body.type as string | undefined) ?? 'booking',
        start: body.start as string,
        end: body.end as string,
        division: (body.division as string | undefined) ?? key.key.division ?? null,
        subdivision: (body.subdivision as string | undefined) ?? key.key.subdivision ?? null,
      };
      bookings.set(booking.id, booking);
      return { status: 201, json: pick(booking) };
    }
    const existing = bookings.get(Number(id));
    if (method === 'GET') return existing ? { status: 200, json: pick(existing) } : { status: 404, json: { message: 'Booking not found' } };
    if (method === 'PUT') {
      // As the service does: validation (and its overlap check) before looking the booking up.
      const errors = validate(body, false);
      const clash = overlapping(body.callsign, body.start, body.end, Number(id));
      if (clash) (errors.callsign ??= []).push(`Booking overlaps with an existing booking: ${clash.id}`);
      if (Object.keys(errors).length > 0) return { status: 422, json: errors };
      if (!existing) return { status: 404, json: [] };
      if (existing.api_key_id !== key.id) return { status: 401, json: { message: 'Booking not owned by this API key' } };
      for (const f of ['callsign', 'cid', 'start', 'end', 'type', 'division', 'subdivision'] as const) {
        if (f in body) (existing as unknown as Record<string, unknown>)[f] = body[f];
      }
      return { status: 200, json: pick(existing) };
    }
    if (method === 'DELETE') {
      if (!existing) return { status: 404, json: [] };
      if (existing.api_key_id !== key.id) return { status: 401, json: { message: 'Booking not owned by this API key' } };
      bookings.delete(existing.id);
      return { status: 204 };
    }
    return { status: 405, json: { message: 'Method Not Allowed' } };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Body;
      try {
        body = raw === '' ? {} : (JSON.parse(raw) as Body);
      } catch {
        body = {};
      }
      const auth = req.headers.authorization;
      requests.push({ method: req.method ?? '', path: url.pathname + url.search, body, authorization: auth });
      const replaced = override?.(req.method ?? '', url.pathname);
      const response =
        mode === 'unavailable'
          ? { status: 503, json: { message: 'Service Unavailable' } }
          : replaced && !replaced.handled
            ? { status: replaced.status }
            : handle(req.method ?? 'GET', url.pathname, url.searchParams, body, auth?.startsWith('Bearer ') ? auth.slice(7) : undefined);
      counts.set(req.method ?? '', (counts.get(req.method ?? '') ?? 0) + 1);
      const send = () => {
        if (res.destroyed) return;
        if (replaced) return void res.writeHead(replaced.status, replaced.headers).end(replaced.body);
        if (response.json === undefined || response.status === 204) res.writeHead(response.status).end();
        else res.writeHead(response.status, { 'content-type': 'application/json' }).end(JSON.stringify(response.json));
      };
      if (delay > 0) setTimeout(send, delay);
      else send();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api`,
    bookings,
    requests,
    count: (method) => counts.get(method) ?? 0,
    setMode: async (m) => {
      const was = mode;
      mode = m;
      if (m === 'refuse' && was !== 'refuse') {
        // Stop listening, and drop kept-alive connections, which would carry on past it.
        server.close();
        for (const s of sockets) s.destroy();
      } else if (m !== 'refuse' && was === 'refuse') {
        await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      }
    },
    setDelay: (ms) => {
      delay = ms;
    },
    respondWith: (fn) => {
      override = fn;
    },
    addKey,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (!server.listening) resolve();
        else server.close(() => resolve());
      }),
  };
}
