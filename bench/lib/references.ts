// The two reference servers a scenario is measured against, each answering every request with the
// bytes captured from Sector: the bare node:http baseline (what Node can do on this machine) and a
// plain Fastify route with no hooks (what the framework costs before Sector adds anything).
import fs from 'node:fs';
import path from 'node:path';
import type { Capture } from '../baseline-server.js';
import type { Exchanged } from './http.js';
import { plainNodeScript, startNode, waitUntil, type NodeProcess } from './processes.js';

export type Reference = 'baseline' | 'Fastify';

export type ReferenceServer = NodeProcess & { port: number };

/** Starts a reference server answering `capture` to `method url`; resolves once it listens. */
export async function startReference(
  kind: Reference,
  { capture, dir, name, method, url }: { capture: Exchanged; dir: string; name: string; method: string; url: string },
): Promise<ReferenceServer> {
  const file = path.join(dir, `capture-${name.replace(/\W+/g, '-')}.json`);
  const saved: Capture = { status: capture.status, rawHeaders: capture.rawHeaders, body: capture.body.toString('base64') };
  fs.writeFileSync(file, JSON.stringify(saved));
  const server =
    kind === 'baseline'
      ? startNode(plainNodeScript('baseline-server.ts'), { name: 'baseline', args: [file] })
      : startNode(plainNodeScript('fastify-server.ts'), { name: 'Fastify', args: [file, method, url] });
  let stdout = '';
  server.onStdout((c) => (stdout += c.toString()));
  const port = await waitUntil(
    async () => {
      const m = /^(\d+)\n/.exec(stdout);
      if (!m) throw new Error('no port yet');
      return Number(m[1]);
    },
    { process: server, timeoutMs: 10_000 },
  );
  return { ...server, port };
}
