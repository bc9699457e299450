// Events past EVENT_RETENTION_DAYS are pruned, once an hour across instances.
import type { Config } from '../../config.js';
import type { Worker } from '../../core/workers/worker.js';
import type { Writer } from '../../core/write.js';
import { pruneEvents } from './retention.js';

export function eventRetentionWorker({ config, writer }: { config: Pick<Config, 'eventRetentionDays'>; writer: Writer }): Worker {
  return {
    name: 'event-retention',
    runs: 'once',
    intervalMs: 3_600_000,
    leaseMs: 10 * 60_000,
    run: async (ctx) => {
      await pruneEvents(writer, config.eventRetentionDays, ctx.now());
    },
  };
}
