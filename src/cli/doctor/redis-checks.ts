/**
 * `deckhand doctor`, Redis part: the topology (one node, a Sentinel group, a Cluster: its master(s),
 * replicas and slots), the version (BullMQ needs ≥ 5.0.0 — bullmq `RedisConnection.minimumVersion`),
 * `maxmemory-policy noeviction` (BullMQ loses jobs under eviction: docs.bullmq.io "Going to
 * production") and the append-only file (queued work survives a restart) on every master. Read from
 * `INFO`, which works where `CONFIG GET` is disabled (managed Redis). Then the chat platforms' modes
 * that allow one receiving process only.
 */
import type { Config } from '../../config';
import { PLATFORMS } from '../../wiring/platforms';
import {
  checkKeyLayout,
  connectRedis,
  describeTopology,
  infoFields,
  KeyLayoutError,
  type RedisClient,
  type RedisTopology,
  RedisTopologyError,
  redisTopology,
} from '../../wiring/redis-doctor';
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

/** Version, eviction and persistence of the master(s), each INFO read from one master. */
function masterChecks(infos: { at: string; info: string }[]): CheckResult[] {
  const fields = infos.map(({ at, info }) => ({ at, f: infoFields(info) }));
  const old = fields.filter(({ f }) => !atLeast(f.get('redis_version') ?? '0.0.0', '5.0.0'));
  const evicting = fields.filter(({ f }) => f.get('maxmemory_policy') !== 'noeviction');
  const noAof = fields.filter(({ f }) => f.get('aof_enabled') !== '1');
  const names = (list: typeof fields) => list.map(({ at }) => at).join(', ');
  const version = fields[0]?.f.get('redis_version') ?? 'unknown';
  return [
    old.length === 0
      ? ok('Redis version', `${version}.`)
      : fail('Redis version', `${names(old)} too old: BullMQ needs Redis 5.0.0 or newer (6.2 recommended).`),
    evicting.length === 0
      ? ok('Redis eviction', 'maxmemory-policy noeviction.')
      : fail(
          'Redis eviction',
          `maxmemory-policy is ${evicting.map(({ at, f }) => `${f.get('maxmemory_policy') ?? 'unknown'} on ${at}`).join(', ')}: Redis may delete queued jobs when memory is full. Run \`CONFIG SET maxmemory-policy noeviction\` (and put it in redis.conf) on every master.`,
        ),
    noAof.length === 0
      ? ok('Redis persistence', 'append-only file on.')
      : fail(
          'Redis persistence',
          `the append-only file is off on ${names(noAof)}: queued work and watches are lost when Redis restarts. Run redis-server with \`--appendonly yes\` (or \`CONFIG SET appendonly yes\`).`,
        ),
  ];
}

async function nodeTopology(redis: RedisClient, topology: RedisTopology): Promise<CheckResult[]> {
  const info = await redis.info();
  const f = infoFields(info);
  const replicas = Number(f.get('connected_slaves') ?? 0);
  const role = f.get('role') === 'master' ? 'master' : 'replica';
  const kind = topology.kind === 'sentinel' ? `Sentinel group "${topology.name}"` : 'one node';
  const where =
    topology.kind === 'sentinel'
      ? `master at ${redis.stream?.remoteAddress ?? '?'}:${redis.stream?.remotePort ?? '?'} (found through ${topology.sentinels.length} sentinel(s))`
      : `${role} at ${describeTopology(topology)}`;
  return [
    ok('Redis topology', `${kind}: ${where}, ${replicas} replica(s).`),
    ...masterChecks([{ at: describeTopology(topology), info }]),
  ];
}

async function clusterTopology(redis: RedisClient): Promise<CheckResult[]> {
  const cluster = redis as unknown as import('ioredis').Cluster;
  const state = infoFields(await redis.cluster('INFO'));
  const masters = cluster.nodes('master');
  // The client connects to masters only (reads go to masters): the replicas are read from CLUSTER NODES.
  const table = String(await redis.cluster('NODES'));
  const replicas = table.split('\n').filter((line) => {
    const flags = line.split(' ')[2] ?? '';
    return flags.includes('slave') && !flags.includes('fail');
  });
  const slots = Number(state.get('cluster_slots_assigned') ?? 0);
  const infos = await Promise.all(
    masters.map(async (node) => ({
      at: `${node.options.host}:${node.options.port}`,
      info: await node.info(),
    })),
  );
  const line = `Redis Cluster: ${masters.length} master(s) (${infos.map(({ at }) => at).join(', ')}), ${replicas.length} replica(s), ${slots}/16384 slots covered, state ${state.get('cluster_state') ?? 'unknown'}.`;
  return [
    slots === 16384 && state.get('cluster_state') === 'ok'
      ? ok('Redis topology', line)
      : fail(
          'Redis topology',
          `${line} Every slot must be covered and the state ok (redis-cli --cluster check).`,
        ),
    ...masterChecks(infos),
  ];
}

/** Platform modes that receive in one process only, which several web processes would duplicate. */
function scalingChecks(config: Config): CheckResult[] {
  return PLATFORMS.flatMap((platform) => platform.scalingCheck?.(config) ?? []);
}

/** The Redis lines. */
export async function redisChecks(config: Config): Promise<CheckResult[]> {
  let topology: RedisTopology | undefined;
  try {
    topology = redisTopology(config);
  } catch (error) {
    if (!(error instanceof RedisTopologyError)) throw error;
    return [{ ...fail('Redis', error.message), configuration: true }];
  }
  if (!topology) {
    return [
      fail(
        'Redis',
        'REDIS_URL is not set (nor REDIS_SENTINELS or REDIS_CLUSTER_NODES): a deployment needs a Redis its processes share, e.g. REDIS_URL=redis://:PASSWORD@HOST:6379, a Sentinel group or a Cluster (docs/redis.md).',
      ),
    ];
  }
  const redis = connectRedis(topology, {
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
    const results =
      topology.kind === 'cluster' ? await clusterTopology(redis) : await nodeTopology(redis, topology);
    try {
      await checkKeyLayout(redis, config.REDIS_KEY_PREFIX, topology);
      results.push(ok('Redis keys', `the keys under "${config.REDIS_KEY_PREFIX}" fit this topology.`));
    } catch (error) {
      if (!(error instanceof KeyLayoutError)) throw error;
      results.push(fail('Redis keys', error.message));
    }
    return [...results, ...scalingChecks(config)];
  } catch (error) {
    const reason = (lastError ?? (error as Error)).message.split('\n')[0];
    return [
      fail(
        'Redis',
        `cannot use the Redis at ${describeTopology(topology)} (${reason}): check the REDIS_* settings, the password and that Redis runs.`,
      ),
      ...scalingChecks(config),
    ];
  } finally {
    redis.disconnect();
  }
}
