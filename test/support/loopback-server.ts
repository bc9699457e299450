// Stand-ins of the network's services are real HTTP servers on 127.0.0.1, on a port of their own.
import type http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackServer {
  port: number;
  /** Ends every open connection (responses held back included) and stops listening. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 at a free port, keeping track of connections so that close() ends them. */
export async function listenOnLoopback(server: http.Server): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
