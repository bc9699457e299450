// The physical limit for Node on this machine: a bare node:http server that answers every request
// with one fixed response — the status, header set and body captured from Sector for a scenario.
// It runs on bare node, as plain JavaScript (see plainNodeScript in lib/processes.ts).
// Usage: node baseline-server.js CAPTURE.json   (prints the port it listens on, 127.0.0.1)
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What run.ts writes: a response of Sector's, its body in base64. */
export interface Capture {
  status: number;
  rawHeaders: string[];
  body: string;
}

// Node writes these itself on every response (Date per request; Connection/Keep-Alive from the server settings).
const MANAGED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const captureFile = process.argv[2];
if (!captureFile) throw new Error('usage: baseline-server CAPTURE.json');
const capture = JSON.parse(fs.readFileSync(captureFile, 'utf8')) as Capture;
const body = Buffer.from(capture.body, 'base64');
const headers: string[] = [];
let keepAliveSeconds: number | null = null;
for (let i = 0; i < capture.rawHeaders.length; i += 2) {
  const name = capture.rawHeaders[i]!;
  const value = capture.rawHeaders[i + 1]!;
  if (name.toLowerCase() === 'keep-alive') keepAliveSeconds = Number(/timeout=(\d+)/.exec(value)?.[1]);
  if (!MANAGED.has(name.toLowerCase())) headers.push(name, value);
}

const server = http.createServer((_req, res) => {
  res.writeHead(capture.status, headers);
  res.end(body);
});
// Same Keep-Alive header as Sector's (Fastify keeps idle connections 72 s, Node's default is 5 s).
if (keepAliveSeconds) server.keepAliveTimeout = keepAliveSeconds * 1000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
