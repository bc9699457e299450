// Responses written before a request reaches the application (the HTTP parser refused it, or it
// did not arrive in time), in the same shape and with the same protective headers as every other.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** Sent on every response; the application's own are added in its onSend hook. */
export const PROTECTIVE_HEADERS = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' } as const;

const FRAMING = 'Malformed request: its Content-Length or Transfer-Encoding is invalid';

/** Node's codes for what it refused -> status and message. Anything else is a malformed request. */
const REFUSALS: Record<string, [status: number, message: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time'],
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large (limit 16 KiB)'],
  HPE_INVALID_METHOD: [400, 'Unknown HTTP method'],
  HPE_INVALID_VERSION: [400, 'Malformed request: unsupported HTTP version'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, FRAMING],
  HPE_INVALID_CONTENT_LENGTH: [400, FRAMING],
  HPE_INVALID_TRANSFER_ENCODING: [400, FRAMING],
  HPE_INVALID_CHUNK_SIZE: [400, FRAMING],
};

/** The whole response, headers and body, for writing straight to a socket. */
export function rawErrorResponse(status: number, message: string): string {
  const body = JSON.stringify({ message });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(PROTECTIVE_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'cache-control: no-store',
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The server's 'clientError' listener (Fastify's clientErrorHandler). As Node does without one,
 * it writes a response only when no other has started on the connection, then closes it.
 */
export function clientErrorHandler(this: { log: FastifyBaseLogger }, err: Error & { code?: string }, socket: Socket): void {
  // A connection reset: nobody is left to respond to.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = REFUSALS[err.code ?? ''] ?? [400, 'Malformed HTTP request'];
  // Only the code: the error also holds the raw bytes received, credentials included.
  this.log.debug({ code: err.code, status }, 'client error');
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && (!inFlight || !inFlight.headersSent)) socket.write(rawErrorResponse(status, message));
  socket.destroy();
}

/**
 * CONNECT (a proxy's method) never reaches the application: Node hands it to 'connect' listeners
 * and, without one, closes the connection without a response. It gets one here instead.
 */
export function refuseConnect(app: FastifyInstance): void {
  app.server.on('connect', (_request: unknown, socket: Socket) => {
    socket.on('error', () => {});
    socket.end(rawErrorResponse(501, 'CONNECT is not supported: this server is not a proxy'));
  });
}
