/**
 * The one place Redis connections are made, for every client (state, the request path, BullMQ, the
 * CLI, `doctor`): one node, a Sentinel group or a Cluster, through ioredis's own support for each
 * (`sentinels`/`name`, `Cluster`), as BullMQ documents (docs.bullmq.io/guide/connections,
 * docs.bullmq.io/patterns/redis-cluster).
 */
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import { LINK_OPTIONS } from './redis-link';
import type { RedisTopology } from './redis-topology';

/**
 * A connection. A Cluster client answers the same commands as a single-node one (ioredis routes each
 * to the master of its key's slot), so every store takes this one type; what differs (SCAN reaches
 * one node only, multi-key commands need one slot) is handled by the key layout
 * (`src/store/key-layout.ts`).
 */
export type RedisClient = Redis;

/**
 * How long a reconnecting client waits between tries. Short at first: after a Sentinel failover the
 * next try asks the sentinels again and finds the new master, so the wait is most of the time
 * Deckhand takes to follow it.
 */
export function reconnectDelay(times: number): number {
  return Math.min(50 * times, 200);
}

/** After a failover, a client still talking to the demoted master gets READONLY: reconnect to the new one. */
function reconnectOnReadonly(error: Error): boolean {
  return error.message.startsWith('READONLY');
}

function sentinelOptions(topology: Extract<RedisTopology, { kind: 'sentinel' }>): RedisOptions {
  return {
    sentinels: topology.sentinels,
    name: topology.name,
    db: topology.db,
    // Listen for +switch-master on the sentinels: a failover that leaves the old master running (a
    // manual one, a partition) is followed at once, not at the next error.
    failoverDetector: true,
    sentinelRetryStrategy: reconnectDelay,
    // A sentinel that does not say where the master is within 2 s is passed over for the next one;
    // without a bound, a sentinel that took the question and never answered would hold the reconnect.
    sentinelCommandTimeout: 2000,
    ...(topology.username ? { username: topology.username } : {}),
    ...(topology.password ? { password: topology.password } : {}),
    ...(topology.sentinelPassword ? { sentinelPassword: topology.sentinelPassword } : {}),
    ...(topology.tls ? { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true } : {}),
  };
}

function clusterOptions(
  topology: Extract<RedisTopology, { kind: 'cluster' }>,
  options: RedisOptions,
): ClusterOptions {
  const { retryStrategy, enableOfflineQueue, lazyConnect, ...nodeOptions } = options;
  return {
    redisOptions: {
      ...nodeOptions,
      ...(topology.username ? { username: topology.username } : {}),
      ...(topology.password ? { password: topology.password } : {}),
      ...(topology.tls ? { tls: {} } : {}),
    },
    ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    clusterRetryStrategy:
      typeof retryStrategy === 'function' ? (times) => retryStrategy(times) ?? null : reconnectDelay,
    // A master failover inside the cluster: MOVED/CLUSTERDOWN are retried after this delay while
    // the replicas elect the new master.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    maxRedirections: 32,
    scaleReads: 'master',
  };
}

/**
 * A new connection to `topology` with `options` (per role: the request path's fail-fast options,
 * BullMQ's `maxRetriesPerRequest: null`, a CLI probe's single try). Every role reconnects with
 * {@link reconnectDelay} unless `options` says otherwise, and reconnects on READONLY.
 */
export function connectRedis(topology: RedisTopology, options: RedisOptions = {}): RedisClient {
  const common: RedisOptions = {
    ...LINK_OPTIONS,
    retryStrategy: reconnectDelay,
    reconnectOnError: reconnectOnReadonly,
    ...options,
  };
  switch (topology.kind) {
    case 'node':
      return new Redis(topology.url, common);
    case 'sentinel':
      // Without the 1 s connect and 1.5 s socket timeouts: a reconnect through the sentinels
      // (ask one, then dial the master it names) on a busy process outlasts them, so each try was
      // abandoned and the client never reached the new master; ioredis also leaves a socket
      // timer armed across a reconnect, where it closes the new link. The sentinels' failover
      // notices (`failoverDetector`) and keepalive tell a Sentinel client its master is gone.
      return reconnectWhenEnded(
        new Redis({
          ...common,
          socketTimeout: undefined,
          connectTimeout: undefined,
          ...sentinelOptions(topology),
        }),
      );
    case 'cluster':
      // The Cluster client implements the same commands; see RedisClient.
      return new Cluster(topology.nodes, clusterOptions(topology, common)) as unknown as RedisClient;
  }
}

/**
 * Makes `client` (and every copy made with `duplicate`) connect again when it ends without its owner
 * closing it (`quit`, `disconnect`), after {@link reconnectDelay}. ioredis ends a Sentinel client for
 * good when the sentinels announce the new master while the client is asking one of them where the
 * master is: the failover detector of its lost link cancels the connect in progress. Returns `client`.
 */
export function reconnectWhenEnded(client: Redis): Redis {
  let closing = false;
  const quit = client.quit.bind(client);
  client.quit = ((...args: Parameters<Redis['quit']>) => {
    closing = true;
    return quit(...args);
  }) as Redis['quit'];
  const disconnect = client.disconnect.bind(client);
  client.disconnect = (reconnect = false) => {
    if (!reconnect) closing = true;
    disconnect(reconnect);
  };
  const duplicate = client.duplicate.bind(client);
  client.duplicate = (override?: Partial<RedisOptions>) => reconnectWhenEnded(duplicate(override));
  client.on('end', () => {
    if (closing) return;
    setTimeout(() => {
      if (!closing && client.status === 'end') client.connect().catch(() => undefined);
    }, reconnectDelay(1));
  });
  return client;
}

/** True when `client` is a Cluster client. */
export function isCluster(client: RedisClient): boolean {
  return (client as unknown as { isCluster?: boolean }).isCluster === true;
}
