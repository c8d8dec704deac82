import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { logConnectionErrors } from './connection-errors';

/** A Redis connection and how to stop what was started for it. */
export interface RedisHandle {
  /** Connection for commands (state, actions, bindings). */
  redis: Redis;
  /**
   * Connection for the request path's first write (the delivery claim): while Redis is away its
   * commands fail at once ({@link REQUEST_PATH_OPTIONS}) instead of waiting to run when it is back.
   */
  requests: Redis;
  /** URL other connections (BullMQ, other processes) use. */
  url: string;
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

async function requestConnection(url: string, logger: Logger): Promise<Redis> {
  const requests = new Redis(url, { ...REQUEST_PATH_OPTIONS, lazyConnect: true });
  logConnectionErrors(requests, logger, 'redis (requests)');
  await requests.connect();
  return requests;
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
 * Connects to `REDIS_URL` when given; otherwise starts `redis-server` as a child process with its data
 * (append-only file on) under `<dataDir>/redis`, stopped cleanly on close.
 */
export async function openRedis(options: {
  url?: string;
  dataDir: string;
  logger: Logger;
}): Promise<RedisHandle> {
  if (options.url) {
    const redis = new Redis(options.url, { maxRetriesPerRequest: null, lazyConnect: true });
    logConnectionErrors(redis, options.logger, 'redis');
    await redis.connect();
    const requests = await requestConnection(options.url, options.logger).catch(async (error) => {
      await redis.quit().catch(() => undefined);
      throw error;
    });
    return {
      redis,
      requests,
      url: options.url,
      async close() {
        await Promise.all([
          redis.quit().catch(() => undefined),
          requests.quit().catch(() => requests.disconnect()),
        ]);
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
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitReady(child);
  options.logger.info(
    { port, dir, existing: existsSync(resolve(dir, 'appendonlydir')) },
    'embedded redis-server started',
  );
  const url = `redis://${host}:${port}`;
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  logConnectionErrors(redis, options.logger, 'redis');
  const requests = await requestConnection(url, options.logger);
  return {
    redis,
    requests,
    url,
    async close() {
      await Promise.all([
        redis.quit().catch(() => undefined),
        requests.quit().catch(() => requests.disconnect()),
      ]);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((done) => child.once('exit', done));
      }
    },
  };
}

function waitReady(child: ChildProcess): Promise<void> {
  return new Promise((ready, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with code ${code}:\n${output}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        ready();
      }
    });
  });
}
