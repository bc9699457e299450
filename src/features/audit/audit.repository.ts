// The audit log's SQL: appended inside the change's own transaction, read by the audit command.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { actorColumns, type AuditEntry, type Fields, type StoredAuditEntry } from './domain/index.js';
import { chunks } from '../../core/db/chunks.js';
import { fixedStatement } from '../../core/db/fixed-statement.js';

/** An entry's row, its columns in the order appendOne passes their values. */
function auditRow(e: AuditEntry) {
  const { actor, actor_name } = actorColumns(e.actor);
  return {
    at: e.at,
    actor,
    actor_name,
    action: e.action,
    target: e.target,
    before: e.before === null ? null : JSON.stringify(e.before),
    after: e.after === null ? null : JSON.stringify(e.after),
  };
}

/** One entry (a change of one thing, the commonest), built and compiled once (src/core/db/fixed-statement.ts). */
const appendOne = fixedStatement((db) =>
  db.insertInto('audit_log').values({ at: 0, actor: '', actor_name: null, action: '', target: '', before: null, after: null }),
);

/**
 * Appends entries in the caller's transaction (one INSERT per few hundred entries), so they commit
 * or roll back with the change they describe. Wire other administration (webhooks) through here.
 */
async function appendAudit(trx: Kysely<Database>, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 1) {
    const r = auditRow(entries[0]!);
    await appendOne(trx, [r.at, r.actor, r.actor_name, r.action, r.target, r.before, r.after]);
    return;
  }
  for (const part of chunks(entries)) await trx.insertInto('audit_log').values(part.map(auditRow)).execute();
}

export interface AuditFilter {
  target?: string;
  /** Only entries of this actor, as stored (`member:<cid>`, `key:<id>`, `cli`, `roster`, `system`). */
  actor?: string;
  /** Only entries at or after this instant (ms). */
  since?: number;
  /** Only entries before this instant (ms). */
  until?: number;
  limit?: number;
  /** Skip this many of the newest (a page of the audit page). */
  offset?: number;
}

/** Entries matching the filter, newest first. */
async function listAudit(db: Kysely<Database>, f: AuditFilter): Promise<StoredAuditEntry[]> {
  let q = db.selectFrom('audit_log').select(['at', 'actor', 'actor_name', 'action', 'target', 'before', 'after']);
  if (f.target !== undefined) q = q.where('target', '=', f.target);
  if (f.actor !== undefined) q = q.where('actor', '=', f.actor);
  if (f.since !== undefined) q = q.where('at', '>=', f.since);
  if (f.until !== undefined) q = q.where('at', '<', f.until);
  q = q.orderBy('at', 'desc').orderBy('id', 'desc');
  if (f.limit !== undefined) q = q.limit(f.limit);
  if (f.offset !== undefined && f.offset > 0) q = q.offset(f.offset);
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
