// Audit entries older than AUDIT_RETENTION_DAYS are pruned, once an hour across instances (when set).
import type { Worker } from '../../core/workers/worker.js';
import type { Writer } from '../../core/write.js';

const DAY_MS = 86_400_000;

export function auditRetentionWorker({ writer, retentionDays }: { writer: Writer; retentionDays: number }): Worker {
  return {
    name: 'audit-retention',
    runs: 'once',
    intervalMs: 3_600_000,
    leaseMs: 10 * 60_000,
    run: async (ctx) => {
      const deleted = await writer.write((w) => w.repos.audit.prune(ctx.now() - retentionDays * DAY_MS));
      if (deleted > 0) ctx.log.info({ deleted, retentionDays }, 'pruned old audit entries');
    },
  };
}
