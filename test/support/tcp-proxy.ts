import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /**
   * Cuts the way to the target, as a database host that goes down would: stops listening (a new
   * connection is refused) and destroys every connection it carries.
   */
  cut(): Promise<void>;
}

/** A TCP proxy to `host:port`, so a test can make a real server lose its database at will. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A cut connection errors on both ends; the proxy itself must not throw for it.
    socket.on('error', () => undefined);
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host, port });
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the proxy has no address');
  return {
    port: address.port,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
