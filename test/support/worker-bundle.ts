/**
 * Real worker processes for the command-queue tests: test/support/platform-worker.ts (the core with
 * `--role worker` and the chat adapters the environment configures), bundled once with esbuild so a
 * fresh process starts fast, and spawned loaded-but-idle until `go()` starts its queue workers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { waitFor } from './wait';
import { stopWorker } from './worker-process';

const ROOT = join(import.meta.dirname, '..', '..');

/** A loaded worker process (its queue workers not started yet). */
export interface LoadedWorker {
  child: ChildProcess;
  /** Starts its queue workers; resolves once they run. */
  go(): Promise<void>;
  /** What it printed on stderr. */
  errors(): string;
}

/** The bundled worker script; `remove` deletes it. */
export interface WorkerBundle {
  /** Spawns a worker; resolves once it has loaded (a worker that exits or hangs first is killed). */
  load(env: Record<string, string>): Promise<LoadedWorker>;
  /** Every worker spawned and not yet stopped by {@link stopAll}. */
  readonly children: readonly ChildProcess[];
  /** Stops every worker spawned so far (for `afterEach`/`afterAll`). */
  stopAll(signal: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  remove(): void;
}

/** Bundles test/support/platform-worker.ts (inside the repository, so its package imports resolve). */
export async function bundleWorker(): Promise<WorkerBundle> {
  mkdirSync(join(ROOT, '.data'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.data', 'command-worker-'));
  await build({
    entryPoints: [join(ROOT, 'test', 'support', 'platform-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    target: 'node20',
    packages: 'external',
    splitting: true,
    outdir: dir,
    logLevel: 'warning',
  });
  const script = join(dir, 'platform-worker.mjs');
  const children: ChildProcess[] = [];
  return {
    children,
    remove: () => rmSync(dir, { recursive: true, force: true }),
    async stopAll(signal) {
      for (const child of children.splice(0)) await stopWorker(child, signal);
    },
    async load(env) {
      const child = spawn(process.execPath, [script], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      let errors = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        errors += chunk.toString();
      });
      const printed = (word: string) =>
        waitFor(
          () => {
            if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${errors}`);
            return out.includes(word);
          },
          90_000,
          10,
        );
      await printed('loaded');
      return {
        child,
        errors: () => errors,
        async go() {
          child.stdin?.write('go\n');
          await printed('ready');
        },
      };
    },
  };
}

/** Worker processes loaded ahead, as {@link preloadedWorkers} keeps them. */
export interface PreloadedWorkers {
  /** One already loaded (another starts loading behind it). */
  next(): Promise<LoadedWorker>;
  /** {@link next}, with its queue workers started. */
  nextStarted(): Promise<LoadedWorker>;
  /** Those still loaded ahead, to stop at the end. */
  waiting(): Promise<LoadedWorker[]>;
}

/**
 * Worker processes loaded ahead: two load in the background while a round runs, so a round rarely
 * waits for a process to start.
 */
export function preloadedWorkers(bundle: WorkerBundle, env: Record<string, string>): PreloadedWorkers {
  const upcoming = [bundle.load(env), bundle.load(env)];
  const next = async () => {
    const loaded = (await upcoming.shift()) as LoadedWorker;
    upcoming.push(bundle.load(env));
    return loaded;
  };
  return {
    next,
    async nextStarted() {
      const loaded = await next();
      await loaded.go();
      return loaded;
    },
    waiting: () => Promise.all(upcoming),
  };
}

/**
 * The worker bundled once for a test file (a crash round needs a fresh process, and a bundle starts in
 * about half the CPU time of tsx transforming every source file again): built before its tests,
 * removed after them, and every process it started killed after each test.
 */
export function useWorkerBundle(): () => WorkerBundle {
  let bundle: WorkerBundle | undefined;
  beforeAll(async () => {
    bundle = await bundleWorker();
  });
  afterAll(() => bundle?.remove());
  afterEach(() => bundle?.stopAll('SIGKILL'));
  return () => {
    if (!bundle) throw new Error('the worker bundle is not built yet');
    return bundle;
  };
}
