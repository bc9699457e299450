// Warns a solo's holder and their training's mentors 3 days before it ends (contract §24), once per
// solo across instances and restarts (the key in notices_sent commits with the mail).
import type { Worker } from '../../core/workers/worker.js';
import type { Writer } from '../../app/deps.js';
import type { NoticeSite } from '../notices/index.js';
import { mailSoloWarnings, SOLO_WARNING_MS } from './notices.js';

/** Solos warned per run (one transaction); a full batch runs again at once. */
const BATCH = 200;

export function soloWarningWorker({ writer, config }: { writer: Writer; config: NoticeSite }): Worker {
  const site = { siteName: config.siteName, publicUrl: config.publicUrl };
  return {
    name: 'solo-warning',
    runs: 'once',
    intervalMs: 10 * 60_000,
    leaseMs: 120_000,
    run: () =>
      writer.write(async (w) => {
        const due = await w.repos.soloWarnings.due(w.at, w.at + SOLO_WARNING_MS, BATCH);
        await mailSoloWarnings(w, site, due);
        return due.length === BATCH;
      }),
  };
}
