// The files of a report or an examination in an import (contract §20): each named by its SHA-256,
// its bytes read from beside the import file (FILE.attachments/<sha256>) before the transaction.
import { MAX_CID } from '../../../core/domain/limits.js';
import { type Obj, bool, fail, gives, instant, int, record, reqStr } from './fields.js';
import type { ImportAttachment } from './plan.js';

const FIELDS = ['name', 'type', 'size', 'sha256', 'hidden', 'uploader_id', 'uploader', 'created_at'] as const;
const TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'text/plain'];

function parseAttachment(v: unknown, path: string): ImportAttachment {
  const o = record(v, path, FIELDS);
  const type = reqStr(o, 'type', path, 40);
  if (!TYPES.includes(type)) fail(`${path}.type`, `must be one of ${TYPES.join(', ')}`);
  const sha256 = reqStr(o, 'sha256', path, 64);
  if (!/^[0-9a-f]{64}$/.test(sha256)) fail(`${path}.sha256`, 'must be 64 lowercase hexadecimal digits');
  return {
    name: reqStr(o, 'name', path, 200),
    type,
    size: int(o, 'size', path, 1, 10 * 1024 * 1024),
    sha256,
    hidden: gives(o, 'hidden') ? bool(o, 'hidden', path) : false,
    uploader_id: o.uploader_id == null ? null : int(o, 'uploader_id', path, 1, MAX_CID),
    uploader: gives(o, 'uploader') ? reqStr(o, 'uploader', path, 100) : 'cli',
    created_at: instant(o, 'created_at', path, false)!,
    content: null,
    path,
  };
}

/** A record's `attachments` (at most 5), when it gives them. */
export function parseAttachments(o: Obj, path: string): { attachments?: ImportAttachment[] } {
  if (!gives(o, 'attachments') || o.attachments === null) return {};
  const list = o.attachments;
  if (!Array.isArray(list)) return fail(`${path}.attachments`, 'must be an array');
  if (list.length > 5) fail(`${path}.attachments`, 'must hold at most 5 files');
  return { attachments: list.map((a, i) => parseAttachment(a, `${path}.attachments[${i}]`)) };
}
