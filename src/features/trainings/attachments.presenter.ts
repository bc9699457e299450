import { isoMicros } from '../../core/domain/time.js';
import type { AttachmentRow } from './attachments.repository.js';
import type { Attachment } from './attachments.schema.js';

export function presentAttachment(a: AttachmentRow): Attachment {
  return {
    id: a.id,
    name: a.name,
    type: a.type as Attachment['type'],
    size: a.size,
    hidden: a.hidden === 1,
    created_at: isoMicros(a.created_at),
  };
}

/** The attachments of each report and examination, by its id, oldest first. */
export function attachmentsByRecord(rows: readonly AttachmentRow[]) {
  const reports = new Map<number, Attachment[]>();
  const examinations = new Map<number, Attachment[]>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    const [map, key] = row.report_id !== null ? [reports, row.report_id] : [examinations, row.examination_id!];
    map.set(key, [...(map.get(key) ?? []), presentAttachment(row)]);
  }
  return { report: (id: number) => reports.get(id) ?? [], examination: (id: number) => examinations.get(id) ?? [] };
}
