/**
 * `deckhand doctor`, Redis part: reachable (and its version, BullMQ needs ≥ 5.0.0 — bullmq
 * `RedisConnection.minimumVersion`), `maxmemory-policy noeviction` (BullMQ loses jobs under eviction:
 * docs.bullmq.io "Going to production") and the append-only file on (queued work survives a restart).
 * Read from `INFO`, which works where `CONFIG GET` is disabled (managed Redis).
 */
import { Redis } from 'ioredis';
import type { Config } from '../../config';
import { type CheckResult, fail, ok } from './check';

/** `major.minor.patch` compared as numbers. */
function atLeast(version: string, minimum: string): boolean {
  const a = version.split('.').map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/** `field:value` lines of an INFO answer. */
function infoFields(info: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of info.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  return fields;
}

/** Host and port of the Redis URL (never its password). */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
}

/** The Redis lines. */
export async function redisChecks(config: Config): Promise<CheckResult[]> {
  if (!config.REDIS_URL) {
    return [
      fail(
        'Redis',
        'REDIS_URL is not set: a deployment needs a Redis its processes share, e.g. REDIS_URL=redis://:PASSWORD@HOST:6379 (see docs/deploy-toolforge.md).',
      ),
    ];
  }
  const at = where(config.REDIS_URL);
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error; // reported below
  });
  try {
    await redis.connect();
    const fields = infoFields(await redis.info());
    const version = fields.get('redis_version') ?? '0.0.0';
    const policy = fields.get('maxmemory_policy') ?? 'unknown';
    const aof = fields.get('aof_enabled') === '1';
    return [
      atLeast(version, '5.0.0')
        ? ok('Redis', `${version} at ${at}.`)
        : fail(
            'Redis',
            `${version} at ${at} is too old: BullMQ needs Redis 5.0.0 or newer (6.2 recommended).`,
          ),
      policy === 'noeviction'
        ? ok('Redis eviction', 'maxmemory-policy noeviction.')
        : fail(
            'Redis eviction',
            `maxmemory-policy is ${policy}: Redis may delete queued jobs when memory is full. Run \`CONFIG SET maxmemory-policy noeviction\` (and put it in redis.conf), or use a Redis of your own.`,
          ),
      aof
        ? ok('Redis persistence', 'append-only file on.')
        : fail(
            'Redis persistence',
            'the append-only file is off: queued work and watches are lost when Redis restarts. Run redis-server with `--appendonly yes` (or `CONFIG SET appendonly yes`).',
          ),
    ];
  } catch (error) {
    const reason = (lastError ?? (error as Error)).message.split('\n')[0];
    return [
      fail(
        'Redis',
        `cannot use the Redis at ${at} (${reason}): check REDIS_URL, the password and that Redis runs.`,
      ),
    ];
  } finally {
    redis.disconnect();
  }
}
