// A stand-in for the network's API v2 (vatsimnetwork/vatsim.dev, API v2 Orgs and Members), as
// Sector reads it: the division and subdivision rosters (`GET /v2/orgs/division/{id}`,
// `GET /v2/orgs/subdivision/{id}`, pages of `limit` (at most 1000) from `offset`, responding with
// `{"items": [...], "count": N}`), one member (`GET /v2/members/{cid}`, 404 when unknown) and a
// member's ATC sessions (`GET /v2/members/{cid}/atc`, paged the same way). Every route needs the
// `X-API-Key` header. Plain node:http on 127.0.0.1, with controls to make responses fail.
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

export interface StandInMember {
  id: number;
  name_first: string;
  name_last: string;
  email: string;
  rating: number;
  region_id: string;
  division_id: string;
  subdivision_id: string | null;
}

export interface StandInAtcSession {
  callsign: string;
  /** ISO instants, as the network writes them. */
  start: string;
  end: string;
}

/**
 * How a request matching a fault is responded to instead (`delayMs`: as usual, that much later; `edit`:
 * as usual, its JSON body passed through the function first).
 */
export type Fault =
  { status: number; body?: string } | { delayMs: number } | { edit: (body: any, url: URL) => unknown } | 'timeout' | 'garbage' | 'shape';

export interface CoreApiStandIn {
  url: string;
  key: string;
  /** Every member the network knows, by id. */
  members: Map<number, StandInMember>;
  atc: Map<number, StandInAtcSession[]>;
  /** Paths (with query) of the requests received, in order. */
  requests: string[];
  /** Responds to requests whose path and query contain `match` with the fault (until cleared). */
  fail(match: string, fault: Fault): void;
  clearFaults(): void;
  close(): Promise<void>;
}

export function member(id: number, division = 'EUD', subdivision: string | null = 'SCA', rating = 3): StandInMember {
  return {
    id,
    name_first: `First${id}`,
    name_last: `Last${id}`,
    email: `${id}@example.org`,
    rating,
    region_id: 'EMEA',
    division_id: division,
    subdivision_id: subdivision,
  };
}

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
};

function page<T>(all: T[], url: URL): { items: T[]; count: number } | null {
  const limit = Number(url.searchParams.get('limit') ?? '25');
  const offset = Number(url.searchParams.get('offset') ?? '0');
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000 || !Number.isInteger(offset) || offset < 0) return null;
  return { items: all.slice(offset, offset + limit), count: all.length };
}

export async function startCoreApiStandIn(key = 'core-key-1'): Promise<CoreApiStandIn> {
  const members = new Map<number, StandInMember>();
  const atc = new Map<number, StandInAtcSession[]>();
  const requests: string[] = [];
  const faults: Array<[string, Fault]> = [];
  const held = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const pathAndQuery = `${url.pathname}${url.search}`;
    requests.push(pathAndQuery);
    const fault = faults.find(([match]) => pathAndQuery.includes(match))?.[1];
    if (fault === 'timeout') {
      held.add(res);
      return;
    }
    if (fault === 'garbage') return send(res, 200, '<html>Bad gateway</html>');
    if (fault === 'shape') return send(res, 200, { data: [] });
    if (fault && 'delayMs' in fault) {
      held.add(res);
      setTimeout(() => {
        held.delete(res);
        if (!res.destroyed) respond(req, res, url);
      }, fault.delayMs);
      return;
    }
    if (fault && 'edit' in fault) return respond(req, res, url, (body) => fault.edit(body, url));
    if (fault) return send(res, fault.status, fault.body ?? { detail: 'error' });
    respond(req, res, url);
  });

  function respond(req: http.IncomingMessage, res: http.ServerResponse, url: URL, edit?: (body: unknown) => unknown): void {
    const reply = (r: http.ServerResponse, status: number, body: unknown) => send(r, status, edit ? edit(body) : body);
    if (req.method !== 'GET') return send(res, 405, { detail: 'Method Not Allowed' });
    if (req.headers['x-api-key'] !== key) return send(res, 401, { detail: 'Invalid API key' });

    let m: RegExpExecArray | null;
    if ((m = /^\/v2\/orgs\/(division|subdivision)\/([A-Za-z0-9]+)$/.exec(url.pathname))) {
      const [, kind, id] = m;
      const all = [...members.values()]
        .filter((u) => (kind === 'division' ? u.division_id === id : u.subdivision_id === id))
        .sort((a, b) => a.id - b.id);
      const p = page(all, url);
      return p ? reply(res, 200, p) : send(res, 422, { detail: 'invalid paging' });
    }
    if ((m = /^\/v2\/members\/(\d+)$/.exec(url.pathname))) {
      const u = members.get(Number(m[1]));
      if (!u) return send(res, 404, { detail: 'Not Found' });
      // The public member record: no name or e-mail.
      return reply(res, 200, {
        id: u.id,
        rating: u.rating,
        pilotrating: 0,
        militaryrating: 0,
        susp_date: null,
        reg_date: '2015-01-01T00:00:00',
        region_id: u.region_id,
        division_id: u.division_id,
        subdivision_id: u.subdivision_id,
        lastratingchange: null,
      });
    }
    if ((m = /^\/v2\/members\/(\d+)\/atc$/.exec(url.pathname))) {
      const cid = Number(m[1]);
      const sessions = (atc.get(cid) ?? []).map((s, i) => ({
        connection_id: {
          id: cid * 1000 + i,
          vatsim_id: String(cid),
          type: 1,
          rating: 3,
          callsign: s.callsign,
          start: s.start,
          end: s.end,
          server: 'GERMANY',
        },
        aircraftengagement: 0,
      }));
      const p = page(sessions, url);
      return p ? reply(res, 200, p) : send(res, 422, { detail: 'invalid paging' });
    }
    return send(res, 404, { detail: 'Not Found' });
  }
  const listening = await listenOnLoopback(server);
  const { port } = listening;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    members,
    atc,
    requests,
    fail: (match, fault) => void faults.unshift([match, fault]),
    clearFaults: () => void faults.splice(0),
    close: () => {
      for (const res of held) res.destroy();
      return listening.close();
    },
  };
}
