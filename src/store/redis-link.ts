/**
 * How every Deckhand connection to Redis notices a broken network and comes back (ioredis 5 options):
 * a link that went silent — a partition, a firewall dropping packets, a Redis host gone — is given
 * up and dialled again within about a second and a half, so work resumes within about two seconds
 * of the network coming back, instead of whenever TCP's own retransmission would get through.
 * A Sentinel client keeps ioredis's own connect timeout and no socket timeout (see `connectRedis`).
 */
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';

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
