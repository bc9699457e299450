// Parsing a data feed document and matching its controllers: several megabytes of JSON, so the
// server does it in a worker thread (feed-parse-worker.ts) and the API's requests are not held up
// behind it. Where the compiled worker is not there (tests running the sources), it runs inline.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FeedShapeError, parseFeed, positionMatcher, type Sighting, sightingsOf } from '../domain/network/feed.js';

export type ParsedFeed = { ok: true; generatedAt: number; sightings: Sighting[] } | { ok: false; message: string };

export function parseAndMatch(body: Uint8Array, positions: readonly string[]): ParsedFeed {
  try {
    const feed = parseFeed(JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')));
    return { ok: true, generatedAt: feed.generatedAt, sightings: sightingsOf(feed.controllers, positionMatcher(positions)) };
  } catch (err) {
    return { ok: false, message: err instanceof FeedShapeError ? `an unexpected shape: ${err.message}` : 'something that is not JSON' };
  }
}

const WORKER = new URL('./feed-parse-worker.js', import.meta.url);
let worker: Worker | null = null;
let queue: Promise<unknown> = Promise.resolve();

function startWorker(): Worker | null {
  if (worker !== null) return worker;
  if (!fs.existsSync(fileURLToPath(WORKER))) return null;
  // The process's own flags (--import hooks, --cpu-prof) are not the worker's business.
  worker = new Worker(WORKER, { execArgv: [] });
  // Never what keeps the process alive.
  worker.unref();
  worker.on('error', () => (worker = null));
  worker.on('exit', () => (worker = null));
  return worker;
}

/** parseAndMatch in the worker thread (one document at a time), or inline without it. */
export function parseOffThread(body: Buffer, positions: readonly string[]): Promise<ParsedFeed> {
  const run = async (): Promise<ParsedFeed> => {
    const w = startWorker();
    if (w === null) return parseAndMatch(body, positions);
    return new Promise<ParsedFeed>((resolve, reject) => {
      const onMessage = (parsed: ParsedFeed) => {
        w.off('error', onError);
        resolve(parsed);
      };
      const onError = (err: Error) => {
        w.off('message', onMessage);
        reject(err);
      };
      w.once('message', onMessage);
      w.once('error', onError);
      w.postMessage({ body, positions });
    });
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}
