import type { Db } from '../db/connection.js';
import type { StoredAuditEntry } from '../domain/audit/index.js';
import { type AuditFilter, listAudit } from '../repositories/audit.js';

/** Entries matching the filter, newest first (the audit command). */
export function readAudit(db: Db, filter: AuditFilter): Promise<StoredAuditEntry[]> {
  return listAudit(db.kysely, filter);
}
