// A bare TCP connection to a listening server, for what an HTTP client library will not send:
// half a request, oversized headers, a body that never arrives.
import net from 'node:net';

export interface RawConnection {
  write(data: string | Buffer): Promise<void>;
  /** Everything the server has sent so far. */
  received(): string;
  /** Resolves when the server has closed the connection (or it was reset). */
  closed: Promise<void>;
  isClosed(): boolean;
  /** Resolves once the received bytes match (or the connection closes first). */
  waitFor(pattern: RegExp): Promise<string>;
  destroy(): void;
}

export function connect(serverUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(serverUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let data = '';
    let closed = false;
    const listeners = new Set<() => void>();
    const notify = () => listeners.forEach((l) => l());
    const closedPromise = new Promise<void>((r) => socket.on('close', () => ((closed = true), notify(), r())));
    socket.on('data', (chunk) => ((data += chunk.toString('latin1')), notify()));
    // A reset while writing is one way of being cut off; 'close' follows it.
    socket.on('error', () => {});
    socket.once('connect', () =>
      resolve({
        write: (chunk) => new Promise((r) => (socket.destroyed ? r() : socket.write(chunk, () => r()))),
        received: () => data,
        closed: closedPromise,
        isClosed: () => closed,
        waitFor: (pattern) =>
          new Promise((r) => {
            const check = () => {
              if (pattern.test(data) || closed) {
                listeners.delete(check);
                r(data);
              }
            };
            listeners.add(check);
            check();
          }),
        destroy: () => socket.destroy(),
      }),
    );
    socket.once('error', reject);
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
