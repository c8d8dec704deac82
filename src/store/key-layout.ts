/**
 * The key layout and the Redis topology must agree: on a Redis Cluster every command (a BullMQ
 * script, a MULTI) must keep its keys in one slot, which Deckhand's keys do through hash tags (see
 * `bullPrefix`, `laneKey`, `tailKey`, `secretIndexBase`). At start-up {@link checkKeyLayout} proves
 * it against the real Redis — a command over each group of keys used together — and refuses to start
 * with one line when it does not hold, instead of answering chat with acks and then nothing.
 */
import { bullPrefix, QUEUE_NAMES, type QueueName } from './queue-keys';
import type { RedisClient } from './redis-connect';
import type { RedisTopology } from './redis-topology';

/** Start-up cannot go on: the message is one line, for the operator. */
export class KeyLayoutError extends Error {}

/** Groups of keys that Deckhand uses in one command: each must lie in one slot. */
export function keyGroups(prefix: string): { name: string; keys: string[] }[] {
  const groups = QUEUE_NAMES.map((queue) => {
    const base = `${bullPrefix(prefix, queue)}:${queue}`;
    return {
      name: `queue ${queue}`,
      keys: [`${base}:wait`, `${base}:meta`, `${base}:active`, `${base}:events`],
    };
  });
  groups.push(
    { name: 'command lanes', keys: [`${prefix}cmd:lane:{commands}:a`, `${prefix}cmd:lane:{commands}:b`] },
    { name: 'secret index', keys: [`${prefix}secrets:{probe}:global`, `${prefix}secrets:{probe}:version`] },
    { name: 'tail state', keys: [`${prefix}tail:{probe}:lines`, `${prefix}tail:{probe}:cursor`] },
  );
  return groups;
}

/** `field:value` lines of an INFO answer. */
export function infoFields(info: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of info.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  return fields;
}

/**
 * Throws a {@link KeyLayoutError} when the topology and the key layout disagree: a Cluster node
 * reached as a single node (every other master's keys answer MOVED), or a group of keys used
 * together that a Cluster puts in different slots.
 */
export async function checkKeyLayout(
  redis: RedisClient,
  prefix: string,
  topology: RedisTopology,
): Promise<void> {
  if (topology.kind !== 'cluster') {
    const cluster = infoFields(await redis.info('cluster'));
    if (cluster.get('cluster_enabled') === '1') {
      throw new KeyLayoutError(
        `the Redis at ${topology.kind === 'node' ? 'REDIS_URL' : 'the sentinels’ master'} is one node of a Redis Cluster: give the whole cluster (REDIS_URL=redis+cluster://HOST:PORT,HOST:PORT or REDIS_CLUSTER_NODES; docs/redis.md).`,
      );
    }
  }
  for (const group of keyGroups(prefix)) {
    try {
      await redis.exists(...group.keys);
    } catch (error) {
      const reason = (error as Error).message.split('\n')[0];
      throw new KeyLayoutError(
        `the keys of ${group.name} under REDIS_KEY_PREFIX "${prefix}" cannot be used together on this Redis (${reason}); with a Redis Cluster leave REDIS_KEY_PREFIX without braces or put one {tag} in it (docs/redis.md).`,
      );
    }
  }
}

/**
 * True when every queue's keys answer a command over several of them through the queues' own
 * connection: false (or a rejection) while that connection has no master (a failover under way) or
 * the keys cannot be used together — the workers could not run then either. For `/readyz`.
 */
export async function queuesUsable(
  queues: Record<QueueName, { opts: { connection?: unknown } }>,
  prefix: string,
): Promise<boolean> {
  await Promise.all(
    QUEUE_NAMES.map(async (queue) => {
      // The connection the queues were opened with (`openQueues`): the one BullMQ's scripts use.
      const client = queues[queue].opts.connection as RedisClient;
      const base = `${bullPrefix(prefix, queue)}:${queue}`;
      await client.exists(`${base}:wait`, `${base}:meta`);
    }),
  );
  return true;
}
