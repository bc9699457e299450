// Publishes endorsement.expired for endorsements that have ended (contract §17), once across instances.
import { presentEndorsement } from './endorsements.presenter.js';
import type { Worker } from '../../core/workers/worker.js';
import type { Writer } from '../../app/deps.js';
import { mailEndorsementChanges } from './notices.js';
import type { NoticeSite } from '../notices/index.js';

/** Endorsements published per run (one transaction); a full batch runs again at once. */
const BATCH = 500;

export function endorsementExpiryWorker({ writer, config }: { writer: Writer; config: NoticeSite }): Worker {
  const site = { siteName: config.siteName, publicUrl: config.publicUrl };
  return {
    name: 'endorsement-expiry',
    runs: 'once',
    // Within a minute of the end (contract §17): a run every 30 seconds.
    intervalMs: 30_000,
    leaseMs: 60_000,
    run: () =>
      writer.write(async (w) => {
        const ended = await w.repos.endorsements.expired(w.at, BATCH);
        const marked = await w.repos.endorsements.markExpiryPublished(
          ended.map((e) => e.id),
          w.at,
        );
        const records = await w.repos.endorsements.list({ now: w.at, ids: marked });
        await mailEndorsementChanges(
          w,
          site,
          records.map((e) => ({ kind: 'expired' as const, e })),
        );
        await w.publish(records.map((e) => ({ type: 'endorsement.expired' as const, data: { endorsement: presentEndorsement(e) } })));
        // A full batch: more may be waiting, so run again at once.
        return ended.length === BATCH;
      }),
  };
}
