/**
 * How every Deckhand connection to Redis notices a broken network and comes back (ioredis 5 options):
 * a link that went silent — a partition, a firewall dropping packets, a Redis host gone — is given
 * up and dialled again within about a second and a half, so work resumes within about two seconds
 * of the network coming back, instead of whenever TCP's own retransmission would get through.
 * A Sentinel client keeps ioredis's own connect timeout and no socket timeout (see `connectRedis`).
 */
import { type Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

/**
 * - `socketTimeout`: a connection that has sent commands and heard nothing for 1.5 s is closed and
 *   reconnected (Redis answers in well under a millisecond; 1.5 s of silence means the link is gone).
 *   Its unanswered commands are sent again on the new link, as after any reconnect.
 * - `connectTimeout`: a connection attempt that is not established in 1 s is abandoned and made
 *   again (a dropped SYN is otherwise retried by the kernel only after 1, 3, 7, 15 s…).
 * - `retryStrategy`: reconnects at most 200 ms apart, however long the outage (ioredis's default
 *   grows to 2 s).
 * - `keepAlive`: TCP keepalive from 1 s of idleness, so an idle connection's dead peer is noticed too.
 */
export const LINK_OPTIONS = {
  socketTimeout: 1500,
  connectTimeout: 1000,
  retryStrategy: (times: number) => Math.min(50 * times, 200),
  keepAlive: 1000,
} satisfies RedisOptions;

/** What {@link heardBeforeGivingUp} reads and sets on an ioredis connection (its own fields). */
interface SocketTimeoutFields {
  options: RedisOptions;
  stream: NodeJS.ReadableStream & { destroy(error?: Error): void };
  commandQueue: { length: number };
  socketTimeoutTimer: NodeJS.Timeout | undefined;
  setSocketTimeout(): void;
}

/**
 * ioredis's socket timeout, made to read what has arrived before it gives a connection up. Its own
 * timer fires in the event loop's timer phase, before the loop reads the sockets: a process whose
 * loop was held up past `socketTimeout` (a busy worker, a host short of CPU) closed a connection
 * whose answers were already waiting, and sent its unanswered commands again on a new one — so a
 * command could run twice (a lock taken twice reads as taken by another, an attempt's claim finds
 * its own). Here the verdict waits for the next check phase (`setImmediate`, after the loop has
 * read the sockets): a connection that has heard nothing by then is given up, as before.
 * Installed once, on ioredis's prototype, so the nodes a Cluster client makes get it too.
 */
function heardBeforeGivingUp(): void {
  const prototype = Redis.prototype as unknown as SocketTimeoutFields;
  if (typeof prototype.setSocketTimeout !== 'function') return;
  prototype.setSocketTimeout = function setSocketTimeout(this: SocketTimeoutFields) {
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (this.socketTimeoutTimer !== timer) return;
        this.socketTimeoutTimer = undefined;
        this.stream.destroy(
          new Error(
            `Socket timeout. Expecting data, but didn't receive any in ${this.options.socketTimeout}ms.`,
          ),
        );
      });
    }, this.options.socketTimeout);
    this.socketTimeoutTimer = timer;
    // Registered after ioredis's own data handler, so the command queue is up to date here.
    this.stream.once('data', () => {
      clearTimeout(timer);
      if (this.socketTimeoutTimer === timer) this.socketTimeoutTimer = undefined;
      if (this.commandQueue.length > 0 && this.socketTimeoutTimer === undefined) this.setSocketTimeout();
    });
  };
}
heardBeforeGivingUp();

/** The copies made of each connection by {@link withBlockingCopies}, for {@link cutBlockingCopies}. */
const copiesOf = new WeakMap<Redis, Set<Redis>>();

function remember(connection: Redis, copy: Redis): Redis {
  const copies = copiesOf.get(connection) ?? new Set<Redis>();
  copiesOf.set(connection, copies);
  copies.add(copy);
  copy.once('end', () => copies.delete(copy));
  return copy;
}

/**
 * A connection whose copies made for blocking reads (BullMQ's workers wait up to 10 s for a job in
 * one read) leave the socket timeout out: a silent wait is normal there, and BullMQ gives up a
 * blocking read that outlived its timeout by a second and reconnects by itself. The copies are
 * remembered, so that a shutdown can cut the ones their owner failed to close
 * ({@link cutBlockingCopies}).
 */
export function withBlockingCopies(connection: Redis): Redis {
  if ((connection as unknown as { isCluster?: boolean }).isCluster === true) {
    const cluster = connection as unknown as Cluster;
    const duplicateCluster = cluster.duplicate.bind(cluster);
    cluster.duplicate = (nodes = [], override: Partial<ClusterOptions> = {}) =>
      remember(
        connection,
        duplicateCluster(nodes, {
          ...override,
          redisOptions: {
            ...cluster.options.redisOptions,
            ...override.redisOptions,
            socketTimeout: undefined,
          },
        }) as unknown as Redis,
      ) as unknown as Cluster;
    return connection;
  }
  const duplicate = connection.duplicate.bind(connection);
  connection.duplicate = (override?: Partial<RedisOptions>) =>
    remember(connection, duplicate({ ...override, socketTimeout: undefined }));
  return connection;
}

/**
 * Disconnects, without waiting, every copy of `connection` made by {@link withBlockingCopies} that
 * has not ended: the last step of a shutdown whose BullMQ workers did not close in time (a Cluster
 * client whose master died may never settle their QUIT).
 */
export function cutBlockingCopies(connection: Redis): void {
  for (const copy of copiesOf.get(connection) ?? []) if (copy.status !== 'end') copy.disconnect();
  copiesOf.delete(connection);
}
