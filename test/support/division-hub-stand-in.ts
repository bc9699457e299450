// A stand-in of the division's hub, VATEUD Core, written from contract §22: it keeps a roster,
// tier-1/tier-2 and solo endorsements, mentors and examiners, upgrades, exams, their assignments
// and members' exam results, checks X-API-KEY, answers §22's shapes, and can be told to refuse (422
// with a message), fail (500), answer what is not JSON (garbage), hang (never answer), or be
// unreachable (not listening).
import http from 'node:http';
import { listenOnLoopback, type LoopbackServer } from './loopback-server.js';

export type HubMode = 'up' | 'refuse' | 'fail' | 'garbage' | 'hang' | 'unreachable';

export interface HubRecord {
  id: number;
  user_cid: number;
  position: string;
  instructor_cid: number;
  expiry?: string;
  facility: number;
  created_at: string;
}

export interface HubRequest {
  method: string;
  path: string;
  body: unknown;
}

/** A CPT upload as the hub parsed it from multipart/form-data. */
export interface HubCpt {
  cid: number;
  examiner_cid: string;
  position: string;
  cpt_pass: string;
  file: { name: string; type: string; bytes: Buffer };
}

export interface HubStandIn {
  url: string;
  key: string;
  roster: Set<number>;
  tiers: { 1: HubRecord[]; 2: HubRecord[] };
  solo: HubRecord[];
  mentors: Set<number>;
  examiners: Set<number>;
  upgrades: Array<{ cid: number; new_rating: number; instructor_cid: number }>;
  exams: Array<{ id: number; name: string; flag_exam_type: number }>;
  assignments: Array<{ user_cid: number; exam_id: number; instructor_cid: number; created_at?: string }>;
  /** Members' exam results, as tests set them; `GET /facility/user/{cid}/exams` answers a member's without user_cid. */
  results: Array<{ user_cid: number; exam_id: number; flag_exam_type: number; passed: boolean; expiry: string | null }>;
  cpts: HubCpt[];
  /** Every request that reached the hub and was answered (not refused for its key), in order. */
  requests: HubRequest[];
  /** What every request gets from now on; `refuse` answers 422 with `refuseMessage`. */
  mode: HubMode;
  refuseMessage: string;
  /** Writes act, then the answer is withheld: the sender's outcome is unknown. */
  actThenHang: boolean;
  /** Set: this many more requests are answered as `mode` says, then `mode` becomes 'fail' (a hub failing mid-run). */
  failAfter: number | null;
  close(): Promise<void>;
}

export async function startHubStandIn(key = 'hub-key'): Promise<HubStandIn> {
  let nextId = 100;
  const now = () => new Date().toISOString().slice(0, 19).replace('T', ' ');
  let listening: LoopbackServer | null = null;
  const hub: HubStandIn = {
    url: '',
    key,
    roster: new Set(),
    tiers: { 1: [], 2: [] },
    solo: [],
    mentors: new Set(),
    examiners: new Set(),
    upgrades: [],
    exams: [
      { id: 11, name: 'S2 theory', flag_exam_type: 2 },
      { id: 12, name: 'S3 theory', flag_exam_type: 3 },
      { id: 13, name: 'C1 theory', flag_exam_type: 4 },
      { id: 18, name: 'S2 fast track', flag_exam_type: 8 },
    ],
    assignments: [],
    results: [],
    cpts: [],
    requests: [],
    mode: 'up',
    refuseMessage: 'Refused by the stand-in.',
    actThenHang: false,
    failAfter: null,
    close: async () => {
      await listening?.close();
    },
  };

  const route = (method: string, path: string, body: Record<string, unknown>): [number, unknown] => {
    let m: RegExpMatchArray | null;
    if (method === 'GET' && path === '/facility/roster') return [200, { data: { controllers: [...hub.roster] } }];
    if ((m = /^\/facility\/roster\/(\d+)$/.exec(path))) {
      if (method === 'POST') hub.roster.add(Number(m[1]));
      else if (method === 'DELETE') hub.roster.delete(Number(m[1]));
      return [200, { message: 'ok' }];
    }
    if ((m = /^\/facility\/endorsements\/(tier-1|tier-2|solo)(?:\/(\d+))?$/.exec(path))) {
      const list = m[1] === 'solo' ? hub.solo : hub.tiers[m[1] === 'tier-1' ? 1 : 2];
      if (method === 'GET' && !m[2]) return [200, { data: list }];
      if (method === 'DELETE' && m[2]) {
        const at = list.findIndex((r) => r.id === Number(m![2]));
        if (at < 0) return [404, { message: 'Endorsement not found.' }];
        list.splice(at, 1);
        return [200, { message: 'deleted' }];
      }
      if (method === 'POST' && !m[2]) {
        if (typeof body['user_cid'] !== 'number' || typeof body['position'] !== 'string')
          return [422, { message: 'user_cid and position are required.' }];
        const record: HubRecord = {
          id: nextId++,
          user_cid: body['user_cid'],
          position: body['position'],
          instructor_cid: Number(body['instructor_cid']),
          facility: 9,
          created_at: now(),
          ...(m[1] === 'solo' ? { expiry: String(body['expire_at']) } : {}),
        };
        list.push(record);
        return [201, { data: record }];
      }
    }
    if ((m = /^\/facility\/training\/(assign|remove)\/(\d+)\/(mentor|examiner)$/.exec(path)) && method === 'POST') {
      const set = m[3] === 'mentor' ? hub.mentors : hub.examiners;
      if (m[1] === 'assign') set.add(Number(m[2]));
      else set.delete(Number(m[2]));
      return [200, { message: 'ok' }];
    }
    if ((m = /^\/facility\/user\/(\d+)\/notes\/cpt$/.exec(path)) && method === 'POST') {
      const file = body['file'];
      const fields = ['examiner_cid', 'position', 'cpt_pass'].map((f) => body[f]);
      if (
        !(file instanceof File) ||
        !fields.every((f) => typeof f === 'string' && f !== '') ||
        !['0', '1'].includes(String(body['cpt_pass']))
      )
        return [422, { message: 'examiner_cid, position, cpt_pass (1/0) and file are required.' }];
      const [examiner_cid, position, cpt_pass] = fields as string[];
      hub.cpts.push({
        cid: Number(m[1]),
        examiner_cid: examiner_cid!,
        position: position!,
        cpt_pass: cpt_pass!,
        file: { name: file.name, type: file.type, bytes: body['bytes'] as Buffer },
      });
      return [200, { message: 'ok' }];
    }
    if ((m = /^\/facility\/user\/(\d+)\/upgrade$/.exec(path)) && method === 'POST') {
      hub.upgrades.push({ cid: Number(m[1]), new_rating: Number(body['new_rating']), instructor_cid: Number(body['instructor_cid']) });
      return [200, { message: 'ok' }];
    }
    if (method === 'GET' && path === '/facility/training/exams') return [200, { data: hub.exams }];
    if (method === 'POST' && path === '/facility/training/exams/assign') {
      hub.assignments.push({
        user_cid: Number(body['user_cid']),
        exam_id: Number(body['exam_id']),
        instructor_cid: Number(body['instructor_cid']),
      });
      return [200, { message: 'ok' }];
    }
    if ((m = /^\/facility\/user\/(\d+)\/exams$/.exec(path)) && method === 'GET') {
      const cid = Number(m[1]);
      const results = hub.results.filter((r) => r.user_cid === cid).map(({ user_cid: _, ...r }) => r);
      return [200, { data: { results, assignments: hub.assignments.filter((a) => a.user_cid === cid) } }];
    }
    return [404, { message: 'Not found.' }];
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (hub.mode === 'hang') return;
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers['x-api-key'] !== hub.key) return send(401, { message: 'Unauthenticated.' });
      const path = (req.url ?? '').replace(/^\/api/, '').split('?')[0]!;
      const method = req.method ?? 'GET';
      let body: Record<string, unknown>;
      const type = req.headers['content-type'] ?? '';
      try {
        body = type.startsWith('multipart/form-data')
          ? formOf(Buffer.concat(chunks), type)
          : chunks.length
            ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>)
            : {};
      } catch {
        return send(400, { message: 'Body is not JSON or multipart/form-data.' });
      }
      if (hub.failAfter !== null && hub.failAfter-- <= 0) {
        hub.failAfter = null;
        hub.mode = 'fail';
      }
      if (hub.mode === 'fail') return send(500, { message: 'Server Error' });
      if (hub.mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><body>Maintenance</body></html>');
      }
      if (hub.mode === 'refuse' && method !== 'GET') return send(422, { message: hub.refuseMessage });
      hub.requests.push({ method, path, body });
      const [status, answer] = route(method, path, body);
      if (hub.actThenHang && method !== 'GET') return;
      send(status, answer);
    });
  });

  const start = async () => {
    listening = await listenOnLoopback(server);
    hub.url = `http://127.0.0.1:${listening.port}/api`;
  };
  await start();
  // Unreachable: the port stops listening; back up: listening again on the same port.
  let mode: HubMode = 'up';
  Object.defineProperty(hub, 'mode', {
    get: () => mode,
    set: (next: HubMode) => {
      if (next === 'unreachable' && mode !== 'unreachable') void listening?.close();
      if (next !== 'unreachable' && mode === 'unreachable') {
        const port = Number(new URL(hub.url).port);
        server.listen(port, '127.0.0.1');
      }
      mode = next;
    },
  });
  return hub;
}

/**
 * A multipart/form-data body, parsed by hand (not by the platform that encoded it): its fields as
 * text, the part `file` as a File, and that file's bytes as `bytes`.
 */
function formOf(raw: Buffer, type: string): Record<string, unknown> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  if (!boundary) throw new Error('no boundary');
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]!}`);
  const out: Record<string, unknown> = {};
  let at = raw.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (raw.subarray(start, start + 2).toString() === '--') break;
    const next = raw.indexOf(delimiter, start);
    if (next < 0) throw new Error('unterminated part');
    const part = raw.subarray(start + 2, next - 2); // after CRLF, before the CRLF ending the part
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('utf8');
    const content = part.subarray(split + 4);
    const name = /name="([^"]*)"/.exec(head)?.[1];
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? '';
    if (name === undefined) throw new Error('a part without a name');
    if (filename === undefined) out[name] = content.toString('utf8');
    else {
      out[name] = new File([new Uint8Array(content)], filename, { type: contentType });
      if (name === 'file') out['bytes'] = Buffer.from(content);
    }
    at = next;
  }
  return out;
}

/** The settings that point a Sector at the stand-in (a test adds its timeouts). */
export function hubEnv(hub: Pick<HubStandIn, 'key' | 'url'>): Record<string, string> {
  return { DIVISION_API: 'vateud', DIVISION_API_KEY: hub.key, DIVISION_API_URL: hub.url };
}
