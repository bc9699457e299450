// Removes Idempotency-Keys past their 24 hours (src/features/bookings/idempotency.service.ts), once an hour across instances.
import { KEY_TTL_MS } from './idempotency.service.js';
import type { Worker } from '../../core/workers/worker.js';
import type { Writer } from '../../core/write.js';

export function idempotencyKeysWorker({ writer }: { writer: Writer }): Worker {
  return {
    name: 'idempotency-keys',
    runs: 'once',
    intervalMs: 3_600_000,
    leaseMs: 10 * 60_000,
    run: async (ctx) => {
      const pruned = await writer.write((w) => w.repos.idempotencyKeys.prune(ctx.now() - KEY_TTL_MS));
      if (pruned > 0) ctx.log.info({ pruned }, 'pruned expired idempotency keys');
    },
  };
}
