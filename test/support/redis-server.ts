import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway redis-server for tests. */
export interface TestRedis {
  host: string;
  port: number;
  stop(): Promise<void>;
}

/** Finds a free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Options of {@link startTestRedis}. */
export interface TestRedisOptions {
  /** Listen on this port (default: a free one). */
  port?: number;
  /** Data directory (default: a new temporary one). */
  dir?: string;
  /** Keep data in an append-only file, synced on every write, so a restart on `dir` keeps it. */
  persistent?: boolean;
}

/** Starts redis-server; resolves once it accepts connections. */
export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'deckhand-redis-'));
  const persistence = options.persistent
    ? ['--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      ...persistence,
      '--dir',
      dir,
      '--databases',
      '64',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(`cannot run redis-server (${error.message}); install it: apt-get install -y redis-server`),
      );
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    host: '127.0.0.1',
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      if (!options.persistent) rmSync(dir, { recursive: true, force: true });
    },
  };
}
