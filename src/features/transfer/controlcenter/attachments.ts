// Control Center's files on training reports and examinations (its `training_object_attachments`,
// each naming a row of `files` whose `path` is under its storage folder): moved with
// `--files DIR`, DIR being that folder (storage/app). Each file's type is found from its content
// as an upload's is; a file missing, of another type, over 10 MB or beyond five on its record is
// skipped with the reason.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { attachmentName, sniffType } from '../../trainings/index.js';
import type { Row } from './read.js';
import { instant, kind, type KindReport, num } from './values.js';

const MAX_BYTES = 10 * 1024 * 1024;
const MAX_PER_RECORD = 5;

export interface MovedFiles {
  report: KindReport;
  /** The files of a report or examination of Control Center (`report:<id>`, `examination:<id>`), as the import format lists them. */
  of: (key: string) => Array<Record<string, unknown>>;
  bytes: (sha256: string) => Buffer | undefined;
}

const recordKey = (a: Row): string | null => {
  const type = String(a.object_type);
  if (/TrainingReport$/.test(type)) return `report:${num(a.object_id)}`;
  if (/TrainingExamination$/.test(type)) return `examination:${num(a.object_id)}`;
  return null;
};

async function readFileIn(dir: string, stored: string): Promise<Buffer | undefined> {
  const relative = path.normalize(stored).replace(/^(\.\.(\/|\\|$))+/, '');
  for (const candidate of [path.join(dir, relative), path.join(dir, 'public', relative), path.join(dir, path.basename(relative))]) {
    if (!path.resolve(candidate).startsWith(path.resolve(dir))) continue;
    const bytes = await fs.readFile(candidate).catch(() => undefined);
    if (bytes) return bytes;
  }
  return undefined;
}

export async function moveFiles(rows: readonly Row[], dir: string | undefined, userIds: ReadonlySet<number>): Promise<MovedFiles> {
  const report = kind(rows.length);
  const lists = new Map<string, Array<Record<string, unknown>>>();
  const contents = new Map<string, Buffer>();
  for (const a of rows) {
    const row = `attachment ${String(a.id)}`;
    const key = recordKey(a);
    const skip = (reason: string) => report.skipped.push({ row, reason });
    if (key === null) {
      skip(`attached to ${String(a.object_type)}, not a report or an examination`);
      continue;
    }
    if (dir === undefined) {
      skip('no --files DIR was given');
      continue;
    }
    const bytes = await readFileIn(dir, String(a.path));
    if (bytes === undefined) {
      skip(`its file ${String(a.path)} is not in ${dir}`);
      continue;
    }
    const type = bytes.length > MAX_BYTES || bytes.length === 0 ? null : await sniffType(bytes);
    if (type === null) {
      skip(bytes.length > MAX_BYTES ? 'larger than 10 MB' : 'not a PDF, PNG, JPEG or plain text file');
      continue;
    }
    const list = lists.get(key) ?? [];
    if (list.length >= MAX_PER_RECORD) {
      skip(`its record already has ${MAX_PER_RECORD} files`);
      continue;
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const uploader = a.uploaded_by == null ? null : num(a.uploaded_by);
    list.push({
      name: attachmentName(String(a.name ?? ''), type),
      type,
      size: bytes.length,
      sha256,
      hidden: Number(a.hidden) === 1,
      uploader_id: uploader !== null && userIds.has(uploader) ? uploader : null,
      uploader: 'cli',
      created_at: instant(a.created_at) ?? '1970-01-01T00:00:00Z',
    });
    lists.set(key, list);
    contents.set(sha256, bytes);
    report.imported += 1;
  }
  return { report, of: (key) => lists.get(key) ?? [], bytes: (sha256) => contents.get(sha256) };
}
