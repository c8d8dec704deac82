/** What a child process of a test writes, and the environment it is started with. */
import type { ChildProcess } from 'node:child_process';

/** A child's output so far: each stream, and both as they came. */
export interface ChildOutput {
  stdout(): string;
  stderr(): string;
  /** Both streams interleaved in the order their chunks arrived. */
  all(): string;
}

/** Starts collecting what `child` writes to its stdout and stderr (spawned with both piped). */
export function captureOutput(child: ChildProcess): ChildOutput {
  let stdout = '';
  let stderr = '';
  let all = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    all += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    all += chunk.toString();
  });
  return { stdout: () => stdout, stderr: () => stderr, all: () => all };
}

/**
 * The environment of a `deckhand` child process: this process's PATH and HOME (nothing else of it, so
 * a test's variables do not leak in), then `env`. `dist` runs the compiled CLI (`DECKHAND_RUN=dist`).
 */
export function childEnv(
  env: Record<string, string>,
  options: { dist?: boolean } = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...(options.dist ? { DECKHAND_RUN: 'dist' } : {}),
    ...env,
  };
}
