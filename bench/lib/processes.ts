/**
 * Child processes of the benchmarks: the real Deckhand (`bin/deckhand.mjs start`), and small TypeScript
 * programs of bench/ run through tsx. Each is bound to 127.0.0.1, can be CPU-profiled (`--cpu-prof`),
 * and is always stopped (SIGTERM, then SIGKILL after a grace period).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from './stats';

/** The key every benchmark process encrypts its (empty) credential store with. */
const SECRET_KEY = randomBytes(32).toString('hex');

/** Children still running, so an interrupted run can end them all (see {@link killAllChildren}). */
const running = new Set<ChildProcess>();

/** Kills every child still running (SIGKILL): for an interrupted run. */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** The repository root. */
export const ROOT = join(import.meta.dirname, '..', '..');

/** A running child process. */
export interface Child {
  process: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** CPU seconds (user + system) it used so far, from /proc (NaN where there is no /proc). */
  cpuSeconds(): number;
  /** Resolves when its stdout has printed a line containing `text`. */
  waitForLine(text: string, timeoutMs: number): Promise<string>;
  /** SIGTERM, and SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Options of {@link spawnChild}. */
export interface SpawnOptions {
  env: Record<string, string>;
  /** Write a V8 CPU profile of the process to this directory (`--cpu-prof`). */
  cpuProfDir?: string;
  /** Extra flags for node. */
  nodeFlags?: string[];
  /** Give the child a stdin pipe (`process.stdin` of the returned child) instead of none. */
  input?: boolean;
}

/** Starts `node [flags] <args>` in the repository root with only PATH, HOME, a SECRET_KEY and `env`. */
export function spawnChild(args: string[], options: SpawnOptions): Child {
  const flags = [
    ...(options.nodeFlags ?? []),
    ...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []),
  ];
  const child = spawn(process.execPath, [...flags, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SECRET_KEY, ...options.env },
    stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const lineWaiters: { text: string; resolve: (line: string) => void }[] = [];
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
    for (const waiter of [...lineWaiters]) {
      const line = out.split('\n').find((l) => l.includes(waiter.text));
      if (line !== undefined) {
        lineWaiters.splice(lineWaiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  return {
    process: child,
    output: () => out,
    cpuSeconds: () => cpuSecondsOf(child.pid),
    waitForLine(text, timeoutMs) {
      const found = out.split('\n').find((l) => l.includes(text));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(
            new Error(`no "${text}" from the child within ${timeoutMs} ms; it printed:\n${out.slice(-3000)}`),
          );
        }, timeoutMs);
        const waiter = {
          text,
          resolve: (line: string) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        lineWaiters.push(waiter);
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`the child exited (${code}) before printing "${text}":\n${out.slice(-3000)}`));
        });
      });
    },
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => false), sleep(graceMs).then(() => true)]);
      if (killed) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Starts a TypeScript program of the repository through tsx. */
export function spawnTs(file: string, options: SpawnOptions): Child {
  return spawnChild(['--import', 'tsx', join(ROOT, file)], options);
}

/**
 * The node flags a deployment runs Deckhand with — those of the Procfile's command for the process
 * type (compose.yaml uses the same; the one-process Dockerfile and `npm start` those of `web`), e.g.
 * `--max-semi-space-size=2` for `web` — so a benchmark measures the process as deployed.
 */
export function deployedNodeFlags(type: 'web' | 'worker' = 'web'): string[] {
  const line = readFileSync(join(ROOT, 'Procfile'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${type}:`));
  const words = line?.slice(`${type}:`.length).trim().split(/\s+/) ?? [];
  const script = words.indexOf('bin/deckhand.mjs');
  return words[0] === 'node' && script > 0 ? words.slice(1, script) : [];
}

/** Starts the real Deckhand CLI (`deckhand start`) with `env`, with the deployment's node flags unless given. */
export function spawnDeckhand(options: SpawnOptions & { role?: 'web' | 'worker' | 'all' }): Child {
  return spawnChild([join(ROOT, 'bin', 'deckhand.mjs'), 'start', '--role', options.role ?? 'all'], {
    ...options,
    nodeFlags: options.nodeFlags ?? deployedNodeFlags(options.role === 'worker' ? 'worker' : 'web'),
  });
}

/** CPU seconds used by a process (utime + stime from /proc/<pid>/stat). */
export function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: state is field 3, utime field 14, stime field 15 (1-based, man 5 proc).
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return (utime + stime) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Peak resident set size of a process so far (VmHWM), in bytes; NaN where there is no /proc. */
export function peakRssOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Resets a process's peak RSS (VmHWM) to its RSS now, by writing 5 to /proc/<pid>/clear_refs (proc(5)),
 * so a later {@link peakRssOf} covers only what came after — not the start-up peak. False where that
 * is not possible (no /proc, or not allowed).
 */
export function resetPeakRss(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Resident set size of a process now (VmRSS), in bytes; NaN where there is no /proc. */
export function rssOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Polls `url` until it answers 200 (a server that started). */
export async function waitForHttp(url: string, timeoutMs: number, child?: Child): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && (child.process.exitCode !== null || child.process.signalCode !== null)) {
      throw new Error(`the process exited before ${url} answered:\n${child.output().slice(-3000)}`);
    }
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(
    `${url} did not answer 200 within ${timeoutMs} ms${child ? `:\n${child.output().slice(-3000)}` : ''}`,
  );
}
