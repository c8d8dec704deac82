import { connect, createServer, type Server, type Socket } from 'node:net';

interface Link {
  client: Socket;
  upstream?: Socket;
  /** Lost bytes to a partition: silent for good (see {@link RedisRelay}). */
  cut: boolean;
  /** Opened during a partition: waits for the heal, its client's bytes kept. */
  held?: Buffer[];
}

/**
 * A TCP relay in front of Redis that plays the network between a process and Redis. It can add a
 * one-way delay to every byte in both directions (a distant Redis: a round trip costs twice
 * `delayMs`), and it can partition the link the way a firewall DROP does, with TCP's own behaviour:
 * - a connection that carries nothing during the partition works again after it (nothing was lost);
 * - a connection whose bytes (either way) were dropped during it stays silent for good, and is never
 *   closed or reset: TCP's retransmissions back off to tens of seconds over a long outage, beyond
 *   what a client should wait, so the client has to notice the silence and connect again;
 * - a connection opened during the partition completes when it heals (a retried SYN getting through).
 */
export class RedisRelay {
  /** Added one-way delay, ms (0: none). */
  delayMs = 0;
  private partitioned = false;
  private readonly links = new Set<Link>();

  private constructor(
    private readonly server: Server,
    private readonly targetPort: number,
    readonly port: number,
  ) {}

  /** Listens on a free port of 127.0.0.1, relaying to `targetPort` there. */
  static async start(targetPort: number): Promise<RedisRelay> {
    let relay: RedisRelay | undefined;
    const server = createServer((client) => relay?.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    relay = new RedisRelay(server, targetPort, typeof address === 'object' && address ? address.port : 0);
    return relay;
  }

  /** The URL a client uses to reach Redis through this relay. */
  url(db = 0): string {
    return `redis://127.0.0.1:${this.port}/${db}`;
  }

  /** Starts dropping every byte, both ways. */
  partition(): void {
    this.partitioned = true;
  }

  /** Lets bytes through again, and completes the connections opened meanwhile. */
  heal(): void {
    this.partitioned = false;
    for (const link of this.links) {
      if (!link.held) continue;
      const held = link.held;
      delete link.held;
      this.open(link);
      for (const chunk of held) this.forward(link, chunk, 'up');
    }
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.upstream?.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket): void {
    const link: Link = { client, cut: false, ...(this.partitioned ? { held: [] } : {}) };
    this.links.add(link);
    client.setNoDelay(true);
    client.on('error', () => undefined);
    client.on('close', () => this.closed(link));
    client.on('data', (chunk: Buffer) => {
      if (link.held) link.held.push(chunk);
      else this.forward(link, chunk, 'up');
    });
    if (!link.held) this.open(link);
  }

  private open(link: Link): void {
    const upstream = connect(this.targetPort, '127.0.0.1');
    link.upstream = upstream;
    upstream.setNoDelay(true);
    upstream.on('error', () => undefined);
    upstream.on('close', () => this.closed(link));
    upstream.on('data', (chunk: Buffer) => this.forward(link, chunk, 'down'));
  }

  private closed(link: Link): void {
    // A cut link tells the other end nothing, not even that it closed.
    if (link.cut) return;
    this.links.delete(link);
    link.client.destroy();
    link.upstream?.destroy();
  }

  private forward(link: Link, chunk: Buffer, direction: 'up' | 'down'): void {
    if (this.partitioned) link.cut = true;
    if (link.cut) return;
    const to = direction === 'up' ? link.upstream : link.client;
    const send = () => {
      if (!link.cut && to && !to.destroyed) to.write(chunk);
    };
    if (this.delayMs > 0) setTimeout(send, this.delayMs);
    else send();
  }
}
