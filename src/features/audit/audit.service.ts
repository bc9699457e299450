import type { StoredAuditEntry } from './domain/index.js';
import type { AuditFilter } from './audit.repository.js';
import type { Deps } from '../../app/deps.js';

/** Who changed what: the audit log as `npx sector audit` prints it (entries are written by each change's Write). */
export class AuditService {
  constructor(private readonly deps: Deps<'repos'>) {}

  /** Entries matching the filter, newest first. */
  read(filter: AuditFilter): Promise<StoredAuditEntry[]> {
    return this.deps.repos.audit.list(filter);
  }
}
