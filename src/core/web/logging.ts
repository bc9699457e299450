// Request logging: what a request's log line holds, and that no credential reaches the log.
import { redactUrl, scrubCredentials } from './redact.js';

/** What the request serializer reads of a Fastify request. */
interface LoggedRequest {
  method: string;
  url: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Pino options for request logs: credentials in any URL are replaced, so secrets never reach the log. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'token'], censor: '[redacted]' },
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        version: request.headers?.['accept-version'] as string | undefined,
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    hooks: { streamWrite: scrubCredentials },
  };
}
