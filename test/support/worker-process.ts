import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';

const ROOT = join(import.meta.dirname, '..', '..');

/** One line of a worker's record file. */
export interface Recorded {
  op: 'post' | 'update';
  pid: number;
  conversationId?: string;
  ref?: string;
  title?: string;
  footer?: string;
  status?: string;
  fields?: { label: string; value: string }[];
  text?: string;
  /** The card's code block (logs). */
  code?: string;
  attachments?: string[];
}

/** Writes the sandbox's CA and client certificates where a separate process can read them. */
export function sandboxEnv(sandbox: ToolhostSandbox): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-certs-'));
  for (const tool of sandbox.ctx.tools) {
    const pair = sandbox.certFor(tool);
    mkdirSync(join(dir, tool), { recursive: true });
    writeFileSync(join(dir, tool, 'client.crt'), pair.cert);
    writeFileSync(join(dir, tool, 'client.key'), pair.key);
  }
  writeFileSync(join(dir, 'ca.crt'), sandbox.ca);
  return {
    TOOLHOST_URL: sandbox.externalUrl,
    TOOLHOST_INTERNAL_URL: sandbox.internalUrl,
    TOOLHOST_CERT_DIR: dir,
    TOOLHOST_CA_FILE: join(dir, 'ca.crt'),
  };
}

/** Starts `test/support/queue-worker.ts` as its own process; resolves once its workers run. */
export async function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test', 'support', 'queue-worker.ts')],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${errors}`)), 90_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${errors}`));
    });
  });
  child.removeAllListeners('exit');
  return child;
}

/** Stops a worker: SIGKILL (a crash) or SIGTERM (a clean stop). */
export async function stopWorker(child: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** Everything the workers recorded so far. */
export function readRecords(file: string): Recorded[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Recorded);
  } catch {
    return [];
  }
}

/** True while a process with this id exists (signal 0 only checks). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
