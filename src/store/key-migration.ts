/**
 * Moves the keys of the untagged layout (every queue under `dh:bull`, lanes, tails and the secret
 * index without hash tags) to the tagged one, once, at the first start on a Redis that has them:
 * queued jobs, watches and the secret index carry over. Each key is renamed (RENAMENX keeps its value
 * and expiry, and never overwrites); a marker key records that it was done. Only on one node or a
 * Sentinel group: the untagged layout never ran on a Cluster.
 *
 * Every Deckhand process of the older layout must be stopped first; one still running would write
 * the old keys again, which the next start finds and refuses with one line.
 */
import type { Logger } from 'pino';
import { checkKeyLayout, KeyLayoutError } from './key-layout';
import { QUEUE_NAMES, untaggedBullPrefix } from './queue-keys';
import type { RedisClient } from './redis-connect';
import type { RedisTopology } from './redis-topology';

/** Value of the marker key once the keys carry hash tags. */
const TAGGED = 'tagged-1';

/** Marker key recording the layout of the keys under `prefix`. */
export function layoutKey(prefix: string): string {
  return `${prefix}key-layout`;
}

/** Old key → new key, or undefined when the key is not of the untagged layout. */
function renamer(prefix: string): (key: string) => string | undefined {
  const bull = `${untaggedBullPrefix(prefix)}:`;
  return (key) => {
    if (key.startsWith(bull)) {
      const rest = key.slice(bull.length);
      const queue = QUEUE_NAMES.find((name) => rest.startsWith(`${name}:`));
      return queue ? `${bull}{${queue}}:${rest}` : undefined;
    }
    const lane = `${prefix}cmd:lane:`;
    if (key.startsWith(lane) && !key.startsWith(`${lane}{`))
      return `${lane}{commands}:${key.slice(lane.length)}`;
    const secrets = `${prefix}secrets:`;
    if (key.startsWith(secrets) && !key.startsWith(`${secrets}{`)) {
      const rest = key.slice(secrets.length);
      const at = rest.indexOf(':');
      return at > 0 ? `${secrets}{${rest.slice(0, at)}}${rest.slice(at)}` : undefined;
    }
    const tail = `${prefix}tail:`;
    const part = /:(lines|cursor|stop)$/.exec(key);
    if (key.startsWith(tail) && !key.startsWith(`${tail}{`) && part) {
      return `${tail}{${key.slice(tail.length, part.index)}}${part[0]}`;
    }
    return undefined;
  };
}

async function scanKeys(redis: RedisClient, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/**
 * Moves untagged keys under `prefix` to the tagged layout when the marker says it was not done;
 * throws a {@link KeyLayoutError} when untagged queue keys appear after it was (an older Deckhand
 * still runs on this Redis). A prefix with its own `{tag}` never had the untagged layout.
 */
export async function migrateKeyLayout(redis: RedisClient, prefix: string, logger: Logger): Promise<void> {
  if (prefix.includes('{')) return;
  const oldMeta = QUEUE_NAMES.map((queue) => `${untaggedBullPrefix(prefix)}:${queue}:meta`);
  if ((await redis.get(layoutKey(prefix))) === TAGGED) {
    if ((await redis.exists(...oldMeta)) > 0) {
      throw new KeyLayoutError(
        `queues under the untagged prefix "${untaggedBullPrefix(prefix)}" reappeared in Redis: a Deckhand of an older version still runs on it. Stop it, remove the key ${layoutKey(prefix)}, and start again (its queued work is then moved over).`,
      );
    }
    return;
  }
  const lock = `${prefix}key-layout:moving`;
  if ((await redis.set(lock, String(process.pid), 'EX', 300, 'NX')) !== 'OK') {
    // Another process is moving them: wait for it (several processes started together).
    for (let waited = 0; waited < 300_000; waited += 500) {
      await new Promise((resume) => setTimeout(resume, 500));
      if ((await redis.get(layoutKey(prefix))) === TAGGED) return;
    }
    throw new KeyLayoutError(
      `another Deckhand process has been moving the keys under "${prefix}" to the tagged layout for 5 minutes; if none runs, remove the key ${lock} and start again.`,
    );
  }
  try {
    const rename = renamer(prefix);
    const patterns = [
      `${untaggedBullPrefix(prefix)}:*`,
      `${prefix}cmd:lane:*`,
      `${prefix}secrets:*`,
      `${prefix}tail:*`,
    ];
    let moved = 0;
    let kept = 0;
    for (const pattern of patterns) {
      const pairs = (await scanKeys(redis, pattern)).flatMap((key) => {
        const to = rename(key);
        return to ? [[key, to] as const] : [];
      });
      for (let i = 0; i < pairs.length; i += 500) {
        const pipeline = redis.pipeline();
        for (const [from, to] of pairs.slice(i, i + 500)) pipeline.renamenx(from, to);
        for (const [error, result] of (await pipeline.exec()) ?? []) {
          if (error) throw error;
          if (result === 1) moved++;
          else kept++;
        }
      }
    }
    await redis.set(layoutKey(prefix), TAGGED);
    if (moved + kept > 0) logger.info({ moved, kept }, 'moved Redis keys to the hash-tagged layout');
  } finally {
    await redis.del(lock);
  }
}

/**
 * Start-up: proves the key layout fits the topology ({@link checkKeyLayout}), then moves keys of the
 * untagged layout (not on a Cluster, where it never ran). Throws a {@link KeyLayoutError} to refuse.
 */
export async function prepareKeyLayout(
  handle: { redis: RedisClient; topology: RedisTopology },
  prefix: string,
  logger: Logger,
): Promise<void> {
  await checkKeyLayout(handle.redis, prefix, handle.topology);
  if (handle.topology.kind !== 'cluster') await migrateKeyLayout(handle.redis, prefix, logger);
}
