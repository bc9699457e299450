// The framework's own cost: a plain Fastify application with one route and no hooks, plugins or
// schemas, answering every request with the bytes captured from Sector for a scenario (status,
// header set and body), as the bare node:http baseline does. Between the two it shows what Fastify
// costs; between it and Sector, what Sector's own hooks and handlers cost.
// It runs on bare node, as plain JavaScript (see plainNodeScript in lib/processes.ts).
// Usage: node fastify-server.js CAPTURE.json METHOD PATH   (prints the port it listens on, 127.0.0.1)
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { Capture } from './baseline-server.js';

// Node writes these itself (Date per request; Connection/Keep-Alive from the server settings), and
// Fastify sets Content-Length from the body.
const MANAGED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

const [captureFile, method, url] = process.argv.slice(2);
if (!captureFile || (method !== 'GET' && method !== 'POST') || !url) throw new Error('usage: fastify-server CAPTURE.json GET|POST PATH');
const capture = JSON.parse(fs.readFileSync(captureFile, 'utf8')) as Capture;
const body = Buffer.from(capture.body, 'base64');
const headers: Record<string, string> = {};
for (let i = 0; i < capture.rawHeaders.length; i += 2) {
  const name = capture.rawHeaders[i]!;
  if (!MANAGED.has(name.toLowerCase())) headers[name] = capture.rawHeaders[i + 1]!;
}

const app = Fastify({ logger: false });
app.route({
  method,
  url: url.split('?')[0]!,
  handler: (_request, reply) => reply.code(capture.status).headers(headers).send(body),
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${(app.server.address() as AddressInfo).port}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
