// One request over a fresh connection, keeping the response exactly as it came: status, raw
// header names and values in order, and body bytes.
import http from 'node:http';

export interface ExchangeRequest {
  port: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Exchanged {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

export function exchange({ port, method = 'GET', path, headers = {}, body }: ExchangeRequest): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      // statusCode is always set on a response from http.request (only server-side messages lack it).
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no response within 30 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Header name (lower case) → value, for comparing two responses; Date differs by nature. */
export function headerMap(rawHeaders: readonly string[], { skip = ['date'] }: { skip?: readonly string[] } = {}): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!skip.includes(name)) map.set(name, rawHeaders[i + 1]!);
  }
  return map;
}

/** Differences between two captured responses (empty when they are the same bytes but the date). */
export function differences(a: Exchanged, b: Exchanged): string[] {
  const out: string[] = [];
  if (a.status !== b.status) out.push(`status ${a.status} vs ${b.status}`);
  if (!a.body.equals(b.body)) out.push(`body ${a.body.length} bytes vs ${b.body.length} bytes`);
  const ha = headerMap(a.rawHeaders);
  const hb = headerMap(b.rawHeaders);
  for (const name of new Set([...ha.keys(), ...hb.keys()])) {
    if (ha.get(name) !== hb.get(name)) out.push(`header ${name}: ${ha.get(name) ?? '(none)'} vs ${hb.get(name) ?? '(none)'}`);
  }
  return out;
}
