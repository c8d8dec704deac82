/**
 * Every key matching a pattern, on one node or on every master of a Redis Cluster (a cluster client's
 * SCAN reaches one node only). For start-up and maintenance sweeps, never for the request path.
 */
import type { Cluster, Redis } from 'ioredis';
import { isCluster } from './redis-connect';

/** Yields the keys matching `pattern`, a batch at a time, from each node holding data. */
export async function* scanKeys(redis: Redis, pattern: string, count = 500): AsyncGenerator<string[]> {
  const nodes = isCluster(redis) ? (redis as unknown as Cluster).nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', count);
      cursor = next;
      if (keys.length) yield keys;
    } while (cursor !== '0');
  }
}
