import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureOutput, childEnv } from './child-output';
import { testRedisEnv } from './redis';

/** What a `deckhand shell` run printed. */
/**
 * The environment of a `deckhand shell --sandbox` child: this worker's Redis database under a fresh
 * prefix, fast emulator steps, an OS-chosen port, `dataDir`, and the terminal user `tester`.
 */
export function shellEnv(dataDir: string): Record<string, string> {
  return childEnv({
    ...testRedisEnv(),
    SANDBOX_STEP_MS: '20',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SHELL_USER: 'tester',
  });
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The log file the run wrote. */
  log: string;
  dataDir: string;
}

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs `deckhand shell --sandbox` as a user would (`node bin/deckhand.mjs`), with `script` on stdin,
 * against the test Redis (its own key prefix) and a fast sandbox.
 */
export async function runShellScript(
  script: string,
  options: {
    wait?: number;
    env?: Record<string, string>;
    /** CLI arguments instead of `shell --sandbox --wait N` (e.g. `['start']`, as `npm start` runs). */
    argv?: string[];
  } = {},
): Promise<ShellRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-e2e-'));
  const run = await spawnDeckhand(
    options.argv ?? ['shell', '--sandbox', '--wait', String(options.wait ?? 30)],
    {
      ...shellEnv(dataDir),
      LOG_LEVEL: 'debug',
      ...options.env,
    },
    script,
  );
  const { code, stdout, stderr } = run;
  let log = '';
  try {
    log = readFileSync(join(dataDir, 'deckhand.log'), 'utf8');
  } catch {
    log = '';
  }
  return { code, stdout, stderr, log, dataDir };
}

/**
 * Runs `node bin/deckhand.mjs <argv>` as a user would, with exactly `env` as its environment and
 * `stdin` as its input (as `uid`/`gid`, from the checkout at `root`, when given); resolves with the
 * exit code and what it printed.
 */
export async function spawnDeckhand(
  argv: string[],
  env: Record<string, string>,
  stdin: string,
  options: { uid?: number; gid?: number; root?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { root = ROOT, ...as } = options;
  const child = spawn(process.execPath, [join(root, 'bin', 'deckhand.mjs'), ...argv], {
    cwd: root,
    env,
    ...as,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

/** The output split into one entry per posted or updated message. */
export function messages(stdout: string): string[] {
  return stdout.split(/\n(?=card \d+( updated)?( \(only you\))?\n)/).filter((m) => /^card \d+/.test(m));
}

/** The first posting of message `card n` (not its updates). */
export function posted(stdout: string, n: number): string {
  return messages(stdout).find((m) => new RegExp(`^card ${n}( \\(only you\\))?\\n`).test(m)) ?? '';
}
