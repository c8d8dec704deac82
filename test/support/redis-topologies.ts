/**
 * Real Redis deployments for tests, from the Debian `redis-server` binary (which runs as a sentinel
 * with `--sentinel`) and `redis-cli --cluster create`: a Sentinel group (1 master, 1 replica, 3
 * sentinels) and a Cluster (3 masters, 3 replicas).
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { infoFields } from '../../src/store/key-layout';
import { freePort, spawnRedisServer } from './redis-server';
import { waitFor } from './wait';

const run = promisify(execFile);

/** One redis-server process. */
export interface RedisProcess {
  port: number;
  /** Sends `signal` (SIGKILL for a crash) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

async function startProcess(args: string[], dir: string): Promise<RedisProcess & { child: ChildProcess }> {
  const portAt = args.indexOf('--port');
  const port = portAt >= 0 ? Number(args[portAt + 1]) : Number(/port (\d+)/.exec(args.join(' '))?.[1]);
  const child = await spawnRedisServer(args, { cwd: dir, timeoutMs: 15_000 });
  return {
    child,
    port,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill(signal);
      await exited;
    },
  };
}

const NODE_ARGS = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'];

/** A Sentinel group. */
export interface SentinelGroup {
  /** The master's name the sentinels know. */
  name: string;
  /** `host:port` of each sentinel. */
  sentinels: string[];
  /** The data nodes, the first the master at start. */
  nodes: RedisProcess[];
  /** The port of the current master, as the sentinels say. */
  masterPort(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts 1 master, 1 replica and 3 sentinels (quorum 2, master down after `downAfterMs`); resolves
 * once every sentinel knows the replica and the two other sentinels (so a failover can happen).
 */
export async function startSentinelGroup(downAfterMs = 1000): Promise<SentinelGroup> {
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-sentinel-'));
  const name = 'dhmaster';
  const masterPort = await freePort();
  const master = await startProcess(['--port', String(masterPort), ...NODE_ARGS], dir);
  const replicaPort = await freePort();
  const replica = await startProcess(
    ['--port', String(replicaPort), ...NODE_ARGS, '--replicaof', '127.0.0.1', String(masterPort)],
    dir,
  );
  const sentinels: (RedisProcess & { child: ChildProcess })[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const conf = join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${name} 127.0.0.1 ${masterPort} 2`,
        `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
        `sentinel failover-timeout ${name} 10000`,
        `sentinel parallel-syncs ${name} 1`,
        '',
      ].join('\n'),
    );
    sentinels.push(await startProcess([conf, '--sentinel', '--port', String(port)], dir));
  }
  const ask = async (port: number, ...args: string[]) => {
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await client.connect();
      return await client.call(...(args as [string, ...string[]]));
    } finally {
      client.disconnect();
    }
  };
  await waitFor(
    async () => {
      for (const s of sentinels) {
        const flat = (await ask(s.port, 'SENTINEL', 'MASTER', name)) as string[];
        const fields = new Map<string, string>();
        for (let i = 0; i < flat.length; i += 2) fields.set(flat[i] as string, flat[i + 1] as string);
        if (fields.get('num-slaves') !== '1' || fields.get('num-other-sentinels') !== '2') return false;
      }
      return true;
    },
    30_000,
    200,
  );
  // The replica has caught up (the failover needs a replica in sync).
  await waitFor(async () => {
    const f = infoFields((await ask(replicaPort, 'INFO', 'replication')) as string);
    return f.get('master_link_status') === 'up';
  }, 30_000);
  return {
    name,
    sentinels: sentinels.map((s) => `127.0.0.1:${s.port}`),
    nodes: [master, replica],
    async masterPort() {
      const [, port] = (await ask(
        sentinels[0]?.port as number,
        'SENTINEL',
        'GET-MASTER-ADDR-BY-NAME',
        name,
      )) as string[];
      return Number(port);
    },
    async stop() {
      await Promise.all([...sentinels, master, replica].map((p) => p.kill()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis Cluster. */
export interface TestCluster {
  /** `host:port` of every node. */
  nodes: string[];
  processes: RedisProcess[];
  /** Port of the master that serves `slot`. */
  masterOf(slot: number): Promise<number>;
  /** Waits until every live node says the cluster is ok. */
  healthy(): Promise<void>;
  /**
   * Waits until every master has a replica that finished its first sync: until then the replica
   * cannot be promoted, and a master killed earlier keeps its slots down for good.
   */
  replicated(): Promise<void>;
  stop(): Promise<void>;
}

/** True when nothing listens on `port` of 127.0.0.1. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free port whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 10000 <= 65535 && (await portFree(port + 10000))) return port;
  }
}

/** Starts 6 nodes and joins them as 3 masters with a replica each (`redis-cli --cluster create`). */
export async function startTestCluster(nodeTimeoutMs = 2000): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-cluster-'));
  const processes: RedisProcess[] = [];
  for (let i = 0; i < 6; i++) {
    const port = await freeClusterPort();
    const nodeDir = join(dir, String(port));
    rmSync(nodeDir, { recursive: true, force: true });
    await import('node:fs').then((fs) => fs.mkdirSync(nodeDir));
    processes.push(
      await startProcess(
        [
          '--port',
          String(port),
          ...NODE_ARGS,
          '--dir',
          nodeDir,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          String(nodeTimeoutMs),
          // A replica's first sync starts at once (the default waits 5 s for more replicas).
          '--repl-diskless-sync-delay',
          '0',
        ],
        nodeDir,
      ),
    );
  }
  const nodes = processes.map((p) => `127.0.0.1:${p.port}`);
  try {
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '1', '--cluster-yes']);
  } catch (error) {
    throw new Error(
      `redis-cli --cluster create failed (${(error as Error).message}); install redis-tools: apt-get install -y redis-tools`,
    );
  }
  const alive = () =>
    processes.filter(
      (p) =>
        (p as RedisProcess & { child: ChildProcess }).child.exitCode === null &&
        (p as RedisProcess & { child: ChildProcess }).child.signalCode === null,
    );
  const cluster: TestCluster = {
    nodes,
    processes,
    async masterOf(slot) {
      const client = new Redis({
        host: '127.0.0.1',
        port: alive()[0]?.port as number,
        maxRetriesPerRequest: 0,
      });
      try {
        const ranges = (await client.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
        const range = ranges.find(([from, to]) => from <= slot && slot <= to);
        return range?.[2][1] as number;
      } finally {
        client.disconnect();
      }
    },
    async healthy() {
      await waitFor(
        async () => {
          for (const p of alive()) {
            const client = new Redis({
              host: '127.0.0.1',
              port: p.port,
              maxRetriesPerRequest: 0,
              lazyConnect: true,
            });
            try {
              await client.connect();
              const f = infoFields(await client.cluster('INFO'));
              if (f.get('cluster_state') !== 'ok') return false;
            } finally {
              client.disconnect();
            }
          }
          return true;
        },
        60_000,
        200,
      );
    },
    async replicated() {
      await waitFor(
        async () => {
          const client = new Redis({
            host: '127.0.0.1',
            port: alive()[0]?.port as number,
            maxRetriesPerRequest: 0,
          });
          try {
            // CLUSTER SLOTS names a replica of a range only once it is in sync with its master.
            const ranges = (await client.cluster('SLOTS')) as unknown as unknown[][];
            return ranges.length > 0 && ranges.every((range) => range.length >= 4);
          } finally {
            client.disconnect();
          }
        },
        60_000,
        200,
      );
    },
    async stop() {
      await Promise.all(processes.map((p) => p.kill()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.healthy();
  await cluster.replicated();
  return cluster;
}
