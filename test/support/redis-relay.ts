import { connect, createServer, type Server, type Socket } from 'node:net';

interface Link {
  client: Socket;
  upstream: Socket;
  /** Cut by a partition: carries nothing ever again (the client has to give it up). */
  cut: boolean;
}

/**
 * A TCP relay in front of Redis that plays the network between a process and Redis. It can add a
 * one-way delay to every byte in both directions (a distant Redis: a round trip costs twice
 * `delayMs`), and it can partition the link the way a firewall DROP does: from `partition()` on, the
 * connections open then, and those opened during the partition, carry nothing in either direction
 * and are never closed or reset — the client notices only through its own timeouts. After `heal()`,
 * new connections work; the cut ones stay silent (the harshest case of TCP's retransmission, which
 * may take many seconds to resume a connection after a long outage), so a client resumes only by
 * giving a silent connection up and connecting again.
 */
export class RedisRelay {
  /** Added one-way delay, ms (0: none). */
  delayMs = 0;
  private partitioned = false;
  private readonly links = new Set<Link>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** Listens on a free port of 127.0.0.1, relaying to `targetPort` there. */
  static async start(targetPort: number): Promise<RedisRelay> {
    let relay: RedisRelay | undefined;
    const server = createServer((client) => relay?.accept(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    relay = new RedisRelay(server, typeof address === 'object' && address ? address.port : 0);
    return relay;
  }

  /** The URL a client uses to reach Redis through this relay. */
  url(db = 0): string {
    return `redis://127.0.0.1:${this.port}/${db}`;
  }

  /** Cuts every open connection and every one opened until {@link heal}. */
  partition(): void {
    this.partitioned = true;
    for (const link of this.links) link.cut = true;
  }

  /** Lets new connections through again. */
  heal(): void {
    this.partitioned = false;
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.upstream.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket, targetPort: number): void {
    const upstream = connect(targetPort, '127.0.0.1');
    const link: Link = { client, upstream, cut: this.partitioned };
    this.links.add(link);
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        // A cut link never tells the other end anything, not even that it closed.
        if (link.cut) return;
        this.links.delete(link);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => this.forward(link, chunk, upstream));
    upstream.on('data', (chunk: Buffer) => this.forward(link, chunk, client));
  }

  private forward(link: Link, chunk: Buffer, to: Socket): void {
    if (link.cut) return;
    const send = () => {
      if (!link.cut && !to.destroyed) to.write(chunk);
    };
    if (this.delayMs > 0) setTimeout(send, this.delayMs);
    else send();
  }
}
