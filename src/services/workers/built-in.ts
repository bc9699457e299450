// The server's own workers: retention of events and audit entries, once across instances, and the
// API key use this process batched, written by every instance.
import type { Config } from '../../config.js';
import { pruneEvents } from '../events/retention.js';
import type { Writer } from '../write.js';
import type { Worker } from './worker.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface BuiltInWorkersOptions {
  config: Pick<Config, 'eventRetentionDays' | 'auditRetentionDays'>;
  writer: Writer;
  keys: { flushLastUsed(): Promise<void> };
  /** How often the batched API key use is written. */
  keyUseIntervalMs?: number;
}

export function builtInWorkers({ config, writer, keys, keyUseIntervalMs = 30_000 }: BuiltInWorkersOptions): Worker[] {
  const workers: Worker[] = [
    {
      name: 'event-retention',
      runs: 'once',
      intervalMs: HOUR_MS,
      leaseMs: 10 * 60_000,
      run: async (ctx) => {
        await pruneEvents(writer, config.eventRetentionDays, ctx.now());
      },
    },
    {
      // The times are this process's own, batched in memory; the last batch is written at
      // shutdown, after the last request.
      name: 'api-key-use',
      runs: 'everywhere',
      intervalMs: keyUseIntervalMs,
      startDelayMs: keyUseIntervalMs,
      runAtStop: true,
      run: () => keys.flushLastUsed(),
    },
  ];
  const auditDays = config.auditRetentionDays;
  if (auditDays !== null) {
    workers.push({
      name: 'audit-retention',
      runs: 'once',
      intervalMs: HOUR_MS,
      leaseMs: 10 * 60_000,
      run: async (ctx) => {
        const deleted = await writer.write((w) => w.repos.audit.prune(ctx.now() - auditDays * DAY_MS));
        if (deleted > 0) ctx.log.info({ deleted, retentionDays: auditDays }, 'pruned old audit entries');
      },
    });
  }
  return workers;
}
