import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { describeTopology, redisTopology } from '../../src/store/redis-topology';

const topologyOf = (env: Record<string, string>) => redisTopology(loadConfig(env));

describe('Redis topology from the configuration', () => {
  it('reads one node, a Sentinel group and a Cluster from REDIS_URL', () => {
    expect(topologyOf({ REDIS_URL: 'rediss://:pw@redis.example.org:6380/2' })).toEqual({
      kind: 'node',
      url: 'rediss://:pw@redis.example.org:6380/2',
    });
    expect(
      topologyOf({ REDIS_URL: 'redis+sentinel://:s%40cret@10.0.0.1:26379,10.0.0.2:26380/mymaster/3' }),
    ).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
      ],
      name: 'mymaster',
      db: 3,
      password: 's@cret',
      tls: false,
    });
    expect(topologyOf({ REDIS_URL: 'rediss+cluster://app:pw@n1:7001,n2:7002' })).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'n1', port: 7001 },
        { host: 'n2', port: 7002 },
      ],
      username: 'app',
      password: 'pw',
      tls: true,
    });
  });

  it('reads the explicit variables, with passwords and TLS', () => {
    expect(
      topologyOf({
        REDIS_SENTINELS: 's1:26379, s2:26379',
        REDIS_SENTINEL_NAME: 'dh',
        REDIS_SENTINEL_PASSWORD: 'sentinel-pw',
        REDIS_PASSWORD: 'data-pw',
        REDIS_TLS: '1',
      }),
    ).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'dh',
      db: 0,
      sentinelPassword: 'sentinel-pw',
      password: 'data-pw',
      tls: true,
    });
    const cluster = topologyOf({ REDIS_CLUSTER_NODES: 'c1:6379,c2:6379' });
    expect(cluster).toMatchObject({ kind: 'cluster', nodes: [{ host: 'c1' }, { host: 'c2' }], tls: false });
    expect(describeTopology(cluster as never)).toBe('cluster of c1:6379,c2:6379');
    expect(topologyOf({})).toBeUndefined();
  });

  it('refuses contradictory or malformed settings with what to do', () => {
    expect(() => topologyOf({ REDIS_URL: 'redis://a:1', REDIS_CLUSTER_NODES: 'c1:6379' })).toThrow(
      'Set only one of REDIS_URL, REDIS_CLUSTER_NODES',
    );
    expect(() => topologyOf({ REDIS_SENTINELS: 's1:26379' })).toThrow(/REDIS_SENTINEL_NAME .* is not/);
    expect(() => topologyOf({ REDIS_URL: 'redis+sentinel://s1:26379' })).toThrow(/needs the master name/);
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'c1' })).toThrow(
      /each entry must look like 10\.0\.0\.5:6379/,
    );
  });

  it('accepts a key prefix with one hash tag, and refuses other braces', () => {
    expect(loadConfig({ REDIS_KEY_PREFIX: '{dh}:' }).REDIS_KEY_PREFIX).toBe('{dh}:');
    expect(() => loadConfig({ REDIS_KEY_PREFIX: '{a}{b}' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'dh{:' })).toThrow(ConfigError);
  });
});
