import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type { RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { logConnectionErrors } from './connection-errors';
import { embeddedState, removeEmbeddedRecord, stopOrphan, writeEmbeddedRecord } from './embedded-redis';
import { connectRedis, type RedisClient } from './redis-connect';
import type { RedisTopology } from './redis-topology';

type Redis = RedisClient;

/** A Redis connection and how to stop what was started for it. */
export interface RedisHandle {
  /** Connection for commands (state, actions, bindings). */
  redis: Redis;
  /**
   * Connection for the request path's first write (the delivery claim): while Redis is away its
   * commands fail at once ({@link REQUEST_PATH_OPTIONS}) instead of waiting to run when it is back.
   */
  requests: Redis;
  /** The deployment every other connection (BullMQ, other processes) reaches. */
  topology: RedisTopology;
  /** A new connection to the same Redis (BullMQ's, with `maxRetriesPerRequest: null`). */
  connect(options: RedisOptions): Redis;
  /** Closes the connection and stops the embedded server, if one was started. */
  close(): Promise<void>;
}

/**
 * ioredis options of the request-path connection (ioredis 5, `lib/Redis.ts` `sendCommand` and
 * `lib/redis/event_handler.ts` `closeHandler`): no offline queue (a command sent while the
 * connection is down is rejected at once), pending commands rejected at the first reconnect
 * attempt and never re-sent, and at most `commandTimeout` ms for an answer (a silent network).
 * The connection itself keeps reconnecting. BullMQ and the workers keep their own patient
 * connections.
 */
export const REQUEST_PATH_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  commandTimeout: 1500,
} satisfies RedisOptions;

async function requestConnection(topology: RedisTopology, logger: Logger): Promise<Redis> {
  const requests = connectRedis(topology, { ...REQUEST_PATH_OPTIONS, lazyConnect: true });
  logConnectionErrors(requests, logger, 'redis (requests)');
  await requests.connect();
  return requests;
}

/**
 * Closes a connection: QUIT when it is open (at most 3 s), nothing when it already ended. (ioredis never settles
 * `quit()` on a connection another owner already closed, and with no socket left the process would
 * fall out of its event loop in the middle of shutting down.)
 */
export async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  // A Cluster client whose node died (a failover) may never settle QUIT there: bounded, then cut.
  let timer: NodeJS.Timeout | undefined;
  const bounded = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 3000);
  });
  await Promise.race([connection.quit().catch(() => undefined), bounded]);
  clearTimeout(timer);
  if ((connection.status as string) !== 'end') connection.disconnect();
}

/** The exact command to install Redis, shown when `redis-server` is missing. */
export const INSTALL_REDIS_HINT =
  'sudo apt-get install -y redis-server   (or set REDIS_URL to an existing Redis)';

/** True when `redis-server` is on the PATH. */
export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Connects to `topology` (from `REDIS_URL`, `REDIS_SENTINELS` or `REDIS_CLUSTER_NODES`) when given; otherwise starts `redis-server` as a child process with its data
 * (append-only file on) under `<dataDir>/redis`, stopped cleanly on close.
 */
export async function openRedis(options: {
  topology?: RedisTopology | undefined;
  dataDir: string;
  logger: Logger;
}): Promise<RedisHandle> {
  const topology = options.topology;
  if (topology) {
    const redis = connectRedis(topology, { maxRetriesPerRequest: null, lazyConnect: true });
    logConnectionErrors(redis, options.logger, 'redis');
    await redis.connect();
    const requests = await requestConnection(topology, options.logger).catch(async (error) => {
      await redis.quit().catch(() => undefined);
      throw error;
    });
    return {
      redis,
      requests,
      topology,
      connect: (connectOptions) => connectRedis(topology, connectOptions),
      async close() {
        await Promise.all([closeConnection(redis), closeConnection(requests)]);
      },
    };
  }
  if (!hasRedisServer()) {
    throw new Error(
      `redis-server is not installed and REDIS_URL is not set.\nInstall it with:  ${INSTALL_REDIS_HINT}`,
    );
  }
  const dir = resolve(options.dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const found = embeddedState(dir);
  if (found.kind === 'in-use') {
    throw new Error(
      `Another Deckhand (pid ${found.record.owner}) is running with its embedded Redis in ${dir}. Stop it first, or give this one another DATA_DIR.`,
    );
  }
  if (found.kind === 'orphaned') {
    options.logger.warn(
      { pid: found.record.pid, dir },
      'stopping an embedded redis-server left by a Deckhand that was killed',
    );
    await stopOrphan(found.record);
  }
  const host = '127.0.0.1';
  const port = await freePort(host);
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      host,
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--protected-mode',
      'yes',
    ],
    // Its own process group: a Ctrl-C in the terminal reaches Deckhand, which drains its work and then
    // stops this server — not both at once, with Deckhand still using it.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  // Whatever ends this process (a signal handled late, process.exit, an uncaught error), the embedded
  // server goes with it: SIGTERM makes redis-server write its append-only file and exit.
  const stopOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stopOnExit);
  try {
    await waitReady(child);
  } catch (error) {
    stopOnExit();
    process.off('exit', stopOnExit);
    throw error;
  }
  options.logger.info(
    { port, dir, existing: existsSync(resolve(dir, 'appendonlydir')) },
    'embedded redis-server started',
  );
  const url = `redis://${host}:${port}`;
  if (child.pid) writeEmbeddedRecord(dir, { pid: child.pid, url, owner: process.pid });
  const embedded: RedisTopology = { kind: 'node', url };
  const redis = connectRedis(embedded, { maxRetriesPerRequest: null });
  logConnectionErrors(redis, options.logger, 'redis');
  const requests = await requestConnection(embedded, options.logger);
  return {
    redis,
    requests,
    topology: embedded,
    connect: (connectOptions) => connectRedis(embedded, connectOptions),
    async close() {
      await Promise.all([closeConnection(redis), closeConnection(requests)]);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      process.off('exit', stopOnExit);
      if (child.pid) removeEmbeddedRecord(dir, child.pid);
    },
  };
}

function waitReady(child: ChildProcess): Promise<void> {
  return new Promise((ready, reject) => {
    let output = '';
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`redis-server exited with code ${code}:\n${output}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready to accept connections/i.test(output)) {
        done();
        ready();
      }
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`redis-server did not start:\n${output}`));
    }, 15_000);
    // Only its own listeners go: the ones added later (close waits for 'exit') must stay.
    const done = () => {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
    };
    child.once('exit', onExit);
    child.stdout?.on('data', onData);
  });
}
