/**
 * Which Redis deployment Deckhand talks to, read from the configuration: one node (`redis://`,
 * `rediss://`), a Sentinel group (`redis+sentinel://` or `REDIS_SENTINELS` + `REDIS_SENTINEL_NAME`)
 * or a Cluster (`redis+cluster://` or `REDIS_CLUSTER_NODES`). See docs/redis.md.
 */

import { REDIS_URL_SCHEMES } from '../config';
/** A host and port. */
export interface HostPort {
  host: string;
  port: number;
}

/** Credentials and TLS of the Redis data nodes. */
export interface RedisAuth {
  username?: string;
  password?: string;
  /** TLS to the data nodes (`rediss…` schemes or `REDIS_TLS`). */
  tls: boolean;
}

/** One Redis node, reached by URL. */
export interface NodeTopology {
  kind: 'node';
  url: string;
}

/** A Sentinel group: the sentinels name the master, which the clients follow through failovers. */
export interface SentinelTopology extends RedisAuth {
  kind: 'sentinel';
  sentinels: HostPort[];
  /** The master's name in the sentinels' configuration. */
  name: string;
  /** Password of the sentinels themselves (`REDIS_SENTINEL_PASSWORD`), when they require one. */
  sentinelPassword?: string;
  db: number;
}

/** A Redis Cluster, found from any of its nodes. */
export interface ClusterTopology extends RedisAuth {
  kind: 'cluster';
  nodes: HostPort[];
}

/** One of the three deployments. */
export type RedisTopology = NodeTopology | SentinelTopology | ClusterTopology;

/** The configuration fields the topology is read from. */
export interface TopologyConfig {
  REDIS_URL?: string | undefined;
  REDIS_SENTINELS?: readonly string[];
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_SENTINEL_PASSWORD?: string | undefined;
  REDIS_CLUSTER_NODES?: readonly string[];
  REDIS_PASSWORD?: string | undefined;
  REDIS_USERNAME?: string | undefined;
  REDIS_TLS?: boolean;
}

/** A mistake in the Redis settings, worded for the person who set them. */
export class RedisTopologyError extends Error {}

function hostPort(text: string, what: string): HostPort {
  const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text.trim());
  if (!match) throw new RedisTopologyError(`${what}: "${text}" is not host:port (e.g. 10.0.0.5:26379).`);
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port: Number(match[2]) };
}

/** Parses `scheme://[user[:password]@]host:port[,host:port…][/path]` (several hosts, which `URL` refuses). */
function multiHostUrl(url: string): {
  scheme: string;
  username?: string;
  password?: string;
  hosts: string[];
  path: string[];
} {
  const match = /^([a-z+]+):\/\/(?:([^@/]*)@)?([^/?#]+)(\/[^?#]*)?$/.exec(url);
  if (!match) throw new RedisTopologyError(`REDIS_URL is not a Redis URL (see docs/redis.md).`);
  const [, scheme, userinfo, hosts, path] = match;
  const out: ReturnType<typeof multiHostUrl> = {
    scheme: scheme as string,
    hosts: (hosts as string).split(','),
    path: (path ?? '').split('/').filter(Boolean).map(decodeURIComponent),
  };
  if (userinfo) {
    const at = userinfo.indexOf(':');
    const user = decodeURIComponent(at < 0 ? userinfo : userinfo.slice(0, at));
    if (at >= 0) out.password = decodeURIComponent(userinfo.slice(at + 1));
    if (user) out.username = user;
  }
  return out;
}

function auth(config: TopologyConfig, fromUrl: { username?: string; password?: string }, tls: boolean) {
  const username = fromUrl.username ?? config.REDIS_USERNAME;
  const password = fromUrl.password ?? config.REDIS_PASSWORD;
  return {
    tls: tls || config.REDIS_TLS === true,
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
  };
}

/**
 * The topology the configuration describes, or undefined when it names no Redis (Deckhand then runs
 * an embedded one). Throws a {@link RedisTopologyError} on contradictory or malformed settings.
 */
export function redisTopology(config: TopologyConfig): RedisTopology | undefined {
  const sentinels = config.REDIS_SENTINELS ?? [];
  const clusterNodes = config.REDIS_CLUSTER_NODES ?? [];
  const url = config.REDIS_URL;
  const given = [
    url ? 'REDIS_URL' : '',
    sentinels.length ? 'REDIS_SENTINELS' : '',
    clusterNodes.length ? 'REDIS_CLUSTER_NODES' : '',
  ].filter(Boolean);
  if (given.length > 1)
    throw new RedisTopologyError(`Set only one of ${given.join(', ')}: each names a whole Redis deployment.`);
  if (sentinels.length > 0) {
    if (!config.REDIS_SENTINEL_NAME)
      throw new RedisTopologyError(
        'REDIS_SENTINELS is set but REDIS_SENTINEL_NAME (the master name the sentinels know) is not.',
      );
    return {
      kind: 'sentinel',
      sentinels: sentinels.map((s) => hostPort(s, 'REDIS_SENTINELS')),
      name: config.REDIS_SENTINEL_NAME,
      db: 0,
      ...(config.REDIS_SENTINEL_PASSWORD ? { sentinelPassword: config.REDIS_SENTINEL_PASSWORD } : {}),
      ...auth(config, {}, false),
    };
  }
  if (clusterNodes.length > 0) {
    return {
      kind: 'cluster',
      nodes: clusterNodes.map((n) => hostPort(n, 'REDIS_CLUSTER_NODES')),
      ...auth(config, {}, false),
    };
  }
  if (!url) return undefined;
  if (!REDIS_URL_SCHEMES.test(url))
    throw new RedisTopologyError(
      'REDIS_URL must start with redis://, rediss://, redis+sentinel://, rediss+sentinel://, redis+cluster:// or rediss+cluster:// (see docs/redis.md).',
    );
  if (/^rediss?:\/\//.test(url)) return { kind: 'node', url };
  const parsed = multiHostUrl(url);
  const tls = parsed.scheme.startsWith('rediss');
  const hosts = parsed.hosts.map((h) => hostPort(h, 'REDIS_URL'));
  if (parsed.scheme.endsWith('+cluster'))
    return { kind: 'cluster', nodes: hosts, ...auth(config, parsed, tls) };
  const [name, db] = parsed.path;
  if (!name)
    throw new RedisTopologyError(
      'REDIS_URL redis+sentinel:// needs the master name as its path: redis+sentinel://:PASSWORD@HOST:26379,HOST:26379/mymaster',
    );
  if (db !== undefined && !/^\d+$/.test(db))
    throw new RedisTopologyError(
      `REDIS_URL: the database after the master name must be a number, not "${db}".`,
    );
  return {
    kind: 'sentinel',
    sentinels: hosts,
    name,
    db: Number(db ?? 0),
    ...(config.REDIS_SENTINEL_PASSWORD ? { sentinelPassword: config.REDIS_SENTINEL_PASSWORD } : {}),
    ...auth(config, parsed, tls),
  };
}

/** Where the topology is, for messages: no password, ever. */
export function describeTopology(topology: RedisTopology): string {
  switch (topology.kind) {
    case 'node': {
      try {
        const u = new URL(topology.url);
        return `${u.hostname}:${u.port || '6379'}`;
      } catch {
        return 'REDIS_URL';
      }
    }
    case 'sentinel':
      return `master "${topology.name}" of sentinels ${topology.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}`;
    case 'cluster':
      return `cluster of ${topology.nodes.map((s) => `${s.host}:${s.port}`).join(',')}`;
  }
}
