// The server's own scheduled jobs. Each is a small handler; the runner owns the timing.
import type { Config } from '../../config.js';
import type { Db } from '../../db/connection.js';
import { pruneAudit } from '../../repositories/audit.js';
import { pruneEvents } from '../events/retention.js';
import type { ScheduledJob } from './types.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface BuiltInJobsOptions {
  config: Pick<Config, 'eventRetentionDays' | 'auditRetentionDays'>;
  db: Db;
  keys: { flushLastUsed(): Promise<void> };
  /** How often the batched API key use is written. */
  keyUseIntervalMs?: number;
}

export function builtInJobs({ config, db, keys, keyUseIntervalMs = 30_000 }: BuiltInJobsOptions): ScheduledJob[] {
  const jobs: ScheduledJob[] = [
    {
      name: 'event-retention',
      intervalMs: HOUR_MS,
      runAtStart: true,
      leaseMs: 10 * 60_000,
      run: async (ctx) => {
        await pruneEvents(db, config.eventRetentionDays, ctx.now());
      },
    },
    {
      // Per instance: the times are this process's own, batched in memory; the last batch is
      // written at shutdown, after the last request.
      name: 'api-key-use',
      intervalMs: keyUseIntervalMs,
      leaseMs: 0,
      perInstance: true,
      runAtStop: true,
      run: () => keys.flushLastUsed(),
    },
  ];
  const auditDays = config.auditRetentionDays;
  if (auditDays !== null) {
    jobs.push({
      name: 'audit-retention',
      intervalMs: HOUR_MS,
      runAtStart: true,
      leaseMs: 10 * 60_000,
      run: async (ctx) => {
        const deleted = await pruneAudit(db.kysely, ctx.now() - auditDays * DAY_MS);
        if (deleted > 0) ctx.log.info({ deleted, retentionDays: auditDays }, 'pruned old audit entries');
      },
    });
  }
  return jobs;
}
