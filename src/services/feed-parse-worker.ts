// The worker thread of feed-parse.ts: parses feed documents off the main thread.
import { parentPort } from 'node:worker_threads';
import { parseAndMatch } from './feed-parse.js';

parentPort?.on('message', (m: { body: Uint8Array; positions: string[] }) => {
  parentPort?.postMessage(parseAndMatch(m.body, m.positions));
});
