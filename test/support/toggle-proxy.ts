import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy that can play an unreachable host: while `down`, each connection is reset at once (a
 * network failure for the client); while up, bytes are piped to `target`. The address stays the same,
 * so a client keeps retrying the one it was configured with.
 */
export class ToggleProxy {
  down = true;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** Listens on a free port of 127.0.0.1, forwarding (when up) to `targetPort`. */
  static async start(targetPort: number): Promise<ToggleProxy> {
    let proxy: ToggleProxy | undefined;
    const server = createServer((client) => {
      if (!proxy || proxy.down) {
        client.resetAndDestroy();
        return;
      }
      const upstream = connect(targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        proxy.sockets.add(socket);
        socket.on('close', () => proxy?.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    proxy = new ToggleProxy(server, typeof address === 'object' && address ? address.port : 0);
    return proxy;
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
