// The audit log: who changed what (contract §9), read by `sector audit`, trimmed by its retention worker.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { AuditService } from './audit.service.js';
import { registerAuditCommand } from './audit.cli.js';
import { auditRetentionWorker } from './retention.worker.js';

function services(deps: ServiceDeps) {
  return { audit: new AuditService(deps) };
}

export const audit: Feature<ReturnType<typeof services>> = {
  services,
  workers: ({ config, writer }) =>
    config.auditRetentionDays !== null ? [auditRetentionWorker({ writer, retentionDays: config.auditRetentionDays })] : [],
  cli: [registerAuditCommand],
};

// What other features use of this one (the audit log's page, src/features/reports).
export { actorFilter, describeChange, type StoredAuditEntry } from './domain/index.js';
export type { AuditFilter } from './audit.repository.js';
