// Uploads (multipart/form-data) read by their route, never by a parser before it: the scope's guard
// (sign-in, a page's CSRF token carried in the form's URL, an API key) runs before a byte of the
// body is read, and a file larger than its limit is refused without being held beyond the limit.
// A route plugin that takes uploads registers `multipartUploads` (the parser stays in its scope:
// every other route still answers multipart bodies with 415).
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Registers the multipart parser in the calling plugin's scope only. */
export async function multipartUploads(app: FastifyInstance): Promise<void> {
  // Imported here, not at the top: a CLI command never reads an upload.
  const { default: multipart } = await import('@fastify/multipart');
  await app.register(multipart, { throwFileSizeLimit: true });
}

export interface UploadLimits {
  /** The file's field. */
  field: string;
  maxBytes: number;
  /** What to answer for a larger file. */
  tooLarge: string;
}

export type Upload =
  | { ok: true; file: { name: string; bytes: Buffer } | null; fields: Record<string, string> }
  | { ok: false; status: 400 | 413 | 415; message: string };

/** Room for the form's other fields and the parts' headers around the file. */
const ENVELOPE = 64 * 1024;

/** The file of the field (the first; others are refused) and the other fields' first values. */
export async function readUpload(request: FastifyRequest, limits: UploadLimits): Promise<Upload> {
  if (!request.isMultipart())
    return { ok: false, status: 415, message: `Send the file as multipart/form-data, in the field "${limits.field}".` };
  const length = Number(request.headers['content-length']);
  // Announced larger than any accepted file: refused before reading anything.
  if (length > limits.maxBytes + ENVELOPE) return { ok: false, status: 413, message: limits.tooLarge };
  const fields: Record<string, string> = {};
  let file: { name: string; bytes: Buffer } | null = null;
  try {
    const parts = request.parts({
      limits: { fileSize: limits.maxBytes, files: 1, fields: 10, parts: 11, fieldSize: 4096, headerPairs: 20 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === limits.field && file === null) file = { name: part.filename, bytes };
      } else if (!(part.fieldname in fields) && typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') return { ok: false, status: 413, message: limits.tooLarge };
    if (code === 'FST_FILES_LIMIT') return { ok: false, status: 400, message: 'Send one file per request.' };
    return { ok: false, status: 400, message: 'The multipart body is malformed or incomplete.' };
  }
  return { ok: true, file, fields };
}
