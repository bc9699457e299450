// The built server parses the data feed in a worker thread, from a file beside its own
// (src/services/feed-parse.ts). When that file is missing it parses on the event loop instead,
// which no answer shows, so the build's output is checked here.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { parseAndMatch, type ParsedFeed } from '../../src/services/feed-parse.js';
import { TEST_DIALECT } from '../support/context.js';
import { feedDocument } from '../support/data-feed-stand-in.js';
import { ROOT } from '../support/processes.js';

function parseInWorker(file: string, body: Uint8Array, positions: string[]): Promise<ParsedFeed> {
  const worker = new Worker(file, { execArgv: [] });
  return new Promise<ParsedFeed>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the worker exited (${code}) without an answer`)));
    worker.postMessage({ body, positions });
  }).finally(() => void worker.terminate());
}

// No database involved: once is enough.
describe.runIf(TEST_DIALECT === 'sqlite')('the built feed parser', () => {
  const server = path.join(ROOT, 'dist/server.js');
  const worker = path.join(path.dirname(server), 'feed-parse-worker.js');

  it('the server bundle starts its worker by the name of a file beside it', () => {
    expect(fs.readFileSync(server, 'utf8')).toContain('"./feed-parse-worker.js"');
    expect(fs.existsSync(worker)).toBe(true);
  });

  it('that worker answers a feed as the server would parse it inline', async () => {
    const at = '2026-11-25T18:00:00Z';
    const document = feedDocument(at, [
      { cid: 1000001, callsign: 'EKCH_TWR', logon_time: '2026-11-25T17:00:00Z', facility: 4 },
      { cid: 1000002, callsign: 'EKCH_A_TWR', logon_time: '2026-11-25T17:30:00Z', facility: 4 },
      { cid: 1000003, callsign: 'ESSA_TWR', logon_time: '2026-11-25T17:45:00Z', facility: 4 },
    ]);
    const body = Buffer.from(JSON.stringify(document));
    const positions = ['EKCH_TWR', 'EKCH_APP'];

    const parsed = await parseInWorker(worker, body, positions);

    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.generatedAt).toBe(Date.parse(at));
    expect(parsed.sightings.length).toBe(2);
    expect(parsed).toEqual(parseAndMatch(body, positions));
  });

  it('that worker answers a document that is not a feed with the reason', async () => {
    const parsed = await parseInWorker(worker, Buffer.from('{"general": 1'), ['EKCH_TWR']);
    expect(parsed).toEqual({ ok: false, message: 'something that is not JSON' });
  });
});
