import type { StoredAuditEntry } from '../domain/audit/index.js';
import type { AuditFilter } from '../repositories/audit.js';
import type { ReadRepositories } from '../repositories/index.js';

/** Who changed what: the audit log as `npx sector audit` prints it (entries are written by each change's Write). */
export class AuditLog {
  constructor(private readonly repos: ReadRepositories) {}

  /** Entries matching the filter, newest first. */
  read(filter: AuditFilter): Promise<StoredAuditEntry[]> {
    return this.repos.audit.list(filter);
  }
}
