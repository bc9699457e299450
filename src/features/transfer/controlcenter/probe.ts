// Whether the server at the Control Center URL's address is a MySQL/MariaDB server, before the driver
// connects: a MySQL server speaks first, with a handshake packet (protocol 10) or an error packet
// (0xff: too many connections, host blocked). The driver would wait its whole connect timeout for a
// greeting a server of another kind never sends, then say only that it timed out.
import net from 'node:net';

export type ProbeResult =
  | { kind: 'mysql' }
  /** No TCP connection, or nothing at all came back: the driver's error code. */
  | { kind: 'no-response'; code: string }
  /** Something else answers: what it looks like, for the message. */
  | { kind: 'other'; what: string };

/** A server that has said nothing after this long is asked something: an HTTP server answers, a MySQL server has long greeted. */
const NUDGE_AFTER_MS = 300;

/** What the first bytes from the server are. */
export function classifyGreeting(first: Buffer): ProbeResult {
  if (first.subarray(0, 5).toString('latin1') === 'HTTP/') return { kind: 'other', what: 'an HTTP server' };
  // A packet: 3 bytes of length, sequence 0, then the protocol version 10 or an error packet.
  const length = first.length >= 4 ? first.readUIntLE(0, 3) : 0;
  if (first.length >= 5 && first[3] === 0 && length > 0 && (first[4] === 10 || first[4] === 0xff)) return { kind: 'mysql' };
  return { kind: 'other', what: 'a server of another kind' };
}

/** Connects, reads the server's first bytes (nudging a silent one with an HTTP request), and closes. */
export function probeServer(host: string, port: number, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let connected = false;
    let nudge: NodeJS.Timeout | undefined;
    const done = (r: ProbeResult) => {
      clearTimeout(nudge);
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ kind: 'no-response', code: 'ETIMEDOUT' }), timeoutMs);
    socket.once('connect', () => {
      connected = true;
      nudge = setTimeout(() => socket.write(`HEAD / HTTP/1.0\r\nHost: ${host}\r\n\r\n`), NUDGE_AFTER_MS);
    });
    socket.once('data', (chunk: Buffer) => done(classifyGreeting(chunk)));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(connected ? { kind: 'other', what: 'a server of another kind' } : { kind: 'no-response', code: err.code ?? 'error' }),
    );
    socket.once('end', () => done({ kind: 'other', what: 'a server that closed the connection without a greeting' }));
  });
}
