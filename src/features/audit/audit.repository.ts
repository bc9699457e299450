// The audit log's SQL: appended inside the change's own transaction, read by the audit command.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { actorColumns, type AuditEntry, type Fields, type StoredAuditEntry } from './domain/index.js';
import { chunks } from '../transfer/import-rows.repository.js';

/**
 * Appends entries in the caller's transaction (one INSERT per few hundred entries), so they commit
 * or roll back with the change they describe. Wire other administration (webhooks) through here.
 */
async function appendAudit(trx: Kysely<Database>, entries: AuditEntry[]): Promise<void> {
  for (const part of chunks(entries)) {
    await trx
      .insertInto('audit_log')
      .values(
        part.map((e) => ({
          at: e.at,
          ...actorColumns(e.actor),
          action: e.action,
          target: e.target,
          before: e.before === null ? null : JSON.stringify(e.before),
          after: e.after === null ? null : JSON.stringify(e.after),
        })),
      )
      .execute();
  }
}

export interface AuditFilter {
  target?: string;
  /** Only entries at or after this instant (ms). */
  since?: number;
  limit?: number;
}

/** Entries matching the filter, newest first. */
async function listAudit(db: Kysely<Database>, f: AuditFilter): Promise<StoredAuditEntry[]> {
  let q = db.selectFrom('audit_log').select(['at', 'actor', 'actor_name', 'action', 'target', 'before', 'after']);
  if (f.target !== undefined) q = q.where('target', '=', f.target);
  if (f.since !== undefined) q = q.where('at', '>=', f.since);
  q = q.orderBy('at', 'desc').orderBy('id', 'desc');
  if (f.limit !== undefined) q = q.limit(f.limit);
  const rows = await q.execute();
  return rows.map((r) => ({
    ...r,
    before: r.before === null ? null : (JSON.parse(r.before) as Fields),
    after: r.after === null ? null : (JSON.parse(r.after) as Fields),
  }));
}

/** Deletes entries older than the instant; returns how many. */
async function pruneAudit(db: Kysely<Database>, before: number): Promise<number> {
  const r = await db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export function auditRepository(db: Kysely<Database>) {
  return {
    append: (entries: AuditEntry[]) => appendAudit(db, entries),
    list: (filter: AuditFilter) => listAudit(db, filter),
    prune: (before: number) => pruneAudit(db, before),
  };
}

export type AuditRepository = ReturnType<typeof auditRepository>;
