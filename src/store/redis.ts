import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { logConnectionErrors } from './connection-errors';

/** A Redis connection and how to stop what was started for it. */
export interface RedisHandle {
  /** Connection for commands (state, actions, bindings). */
  redis: Redis;
  /** URL other connections (BullMQ, other processes) use. */
  url: string;
  /** Closes the connection and stops the embedded server, if one was started. */
  close(): Promise<void>;
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
    return { redis, url: options.url, close: async () => void (await redis.quit().catch(() => undefined)) };
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
  return {
    redis,
    url,
    async close() {
      await redis.quit().catch(() => undefined);
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
