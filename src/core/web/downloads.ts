// A stored file sent to be saved, never shown or sniffed: its own type, `Content-Disposition:
// attachment` with a name no header can be broken by, `nosniff`, and a sandbox should it be opened
// anyway. Its ETag is its stored hash (the bytes are not hashed again per request).
import type { FastifyReply } from 'fastify';

export interface Download {
  name: string;
  /** A media type; text/plain is sent as UTF-8. */
  type: string;
  /** Hex SHA-256 of the content. */
  sha256: string;
  content: Buffer;
}

/**
 * `attachment` with the name as a plain-ASCII fallback and, when it holds more than that, in RFC
 * 5987 form: quotes, backslashes and anything outside printable ASCII never reach the header as written.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === name ? `attachment; filename="${ascii}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function sendDownload(reply: FastifyReply, file: Download): FastifyReply {
  return reply
    .header('content-type', file.type === 'text/plain' ? 'text/plain; charset=utf-8' : file.type)
    .header('content-disposition', contentDisposition(file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('etag', `"${file.sha256}"`)
    .send(file.content);
}
