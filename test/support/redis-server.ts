import { type ChildProcess, spawn } from 'node:child_process';
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

/**
 * Runs `redis-server` with `args` (in `cwd` when given); resolves with the process once it is ready (a
 * server accepts connections, a sentinel has its id), rejects with what it printed when it exits
 * first or is not ready within `timeoutMs`.
 */
export async function spawnRedisServer(
  args: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((ready, reject) => {
    let output = '';
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.off('exit', exited);
      reject(error);
    };
    const exited = (code: number | null) =>
      fail(new Error(`redis-server exited with code ${code}:\n${output}`));
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not start:\n${output}`)),
      options.timeoutMs ?? 10_000,
    );
    child.once('exit', exited);
    child.on('error', (error) =>
      fail(
        new Error(`cannot run redis-server (${error.message}); install it: apt-get install -y redis-server`),
      ),
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready to accept connections|Sentinel ID is/i.test(output)) {
        clearTimeout(timer);
        child.off('exit', exited);
        child.stdout?.resume();
        ready();
      }
    });
    child.stderr?.resume();
  });
  return child;
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
  const child = await spawnRedisServer([
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
  ]);
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
