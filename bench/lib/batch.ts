// The batch measurement (contract §5, "Batches and retries"): bookings per second made by
// 100-booking batches against single creates, on one Sector over a copy of the dataset, in one run,
// at the same concurrency. Every booking gets a slot of its own (no two collide).
import path from 'node:path';
import type { Dataset } from './dataset.js';
import { exchange } from './http.js';
import { copyDatabase, startSector, stopSector } from './sector.js';
import type { SlotSequence } from './slots.js';
import { checkBookings } from './verify.js';

export const BATCH_SIZE = 100;
const CONNECTIONS = 4;

export interface BatchFigures {
  singleBookingsPerS: number;
  batchBookingsPerS: number;
  /** Batch over single: how many times faster a booking is made in a batch. */
  speedup: number;
  failures: string[];
}

/** Sends `total` requests, `CONNECTIONS` at a time; seconds taken. Throws at the first unexpected response. */
async function drain(total: number, send: () => Promise<number>, expect: number): Promise<number> {
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent < total) {
        sent++;
        const status = await send();
        if (status !== expect) throw new Error(`responded with ${status}, expected ${expect}`);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

export async function measureBatch({
  dataset,
  slots,
  quick,
  log,
}: {
  dataset: Dataset;
  slots: SlotSequence;
  quick: boolean;
  log: (line: string) => void;
}): Promise<BatchFigures> {
  const databaseFile = path.join(dataset.dir, 'batch.db');
  copyDatabase(dataset.databaseFile, databaseFile);
  const sector = await startSector({ databaseUrl: `sqlite:${databaseFile}`, label: 'batch' });
  const headers = { authorization: `Bearer ${dataset.token}`, 'content-type': 'application/json' };
  const single = async () =>
    (await exchange({ port: sector.port, method: 'POST', path: '/api/bookings/create', headers, body: slots.next() })).status;
  const batch = async () => {
    const body = `{"bookings":[${Array.from({ length: BATCH_SIZE }, () => slots.next()).join(',')}]}`;
    return (await exchange({ port: sector.port, method: 'POST', path: '/api/bookings/batch', headers, body })).status;
  };
  const failures: string[] = [];
  try {
    const singles = quick ? 300 : 1_000;
    const batches = quick ? 6 : 20;
    // Warm-up of both paths, not counted.
    await drain(50, single, 201);
    await drain(4, batch, 201);
    const firstMeasured = slots.issued;
    const singleSeconds = await drain(singles, single, 201);
    const batchSeconds = await drain(batches, batch, 201);
    const singleBookingsPerS = singles / singleSeconds;
    const batchBookingsPerS = (batches * BATCH_SIZE) / batchSeconds;
    log(
      `   ${singles} single creates: ${singleBookingsPerS.toFixed(1)} bookings/s; ${batches} batches of ${BATCH_SIZE}: ` +
        `${batchBookingsPerS.toFixed(1)} bookings/s (${(batchBookingsPerS / singleBookingsPerS).toFixed(1)}×), ${CONNECTIONS} connections`,
    );
    const check = checkBookings(databaseFile, { from: slots.first });
    const acknowledged = slots.issued - firstMeasured + 50 + 4 * BATCH_SIZE;
    if (check.overlaps.length > 0) failures.push(`batch: ${check.overlaps.length} overlapping pairs of bookings`);
    if (check.created < acknowledged) failures.push(`batch: ${check.created} bookings stored for ${acknowledged} acknowledged`);
    return { singleBookingsPerS, batchBookingsPerS, speedup: batchBookingsPerS / singleBookingsPerS, failures };
  } finally {
    const trouble = await stopSector(sector);
    if (trouble) log(trouble);
  }
}
