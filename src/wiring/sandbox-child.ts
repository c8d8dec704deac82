/**
 * `start --sandbox` with a chat platform: the emulators run in a child process (`deckhand sandbox`,
 * src/wiring/sandbox-standalone.ts, with the same runner — compiled dist/ or the sources through tsx —
 * as this process), and Deckhand talks to them as to real services through the variables the child
 * prints. The terminal chat keeps them in-process. The child lives in its own process group (a Ctrl-C
 * reaches Deckhand alone, which drains in-flight commands against the emulators, then stops them) and
 * exits by itself when Deckhand's end of its stdin closes, so it never outlives Deckhand.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { SOURCE_WEBHOOK_PATH } from '../web/oauth-routes';
import { SANDBOX_MIRROR_HOST } from './linked-access';
import { SANDBOX_PARENT_VARIABLE, SANDBOX_SERVICES_VARIABLE, TOOL_PLACEHOLDER } from './sandbox-standalone';
import { emulatedServices, type ServiceName, serviceModes } from './service-modes';

/** How long the child may take to print its addresses. */
const READY_TIMEOUT_MS = 60_000;
/** How long the child may take to stop after SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 5_000;

/** The emulators' process, started by {@link startSandboxChild}. */
export interface SandboxChild {
  pid: number;
  /** The emulated services. */
  services: ServiceName[];
  /** The configuration values that point Deckhand at the emulators. */
  values: Partial<Config>;
  /** The tool platform emulator's tools and web addresses (when it runs). */
  tools: string[];
  toolUrl: ((tool: string) => string) | undefined;
  /** Resolves with one line for the operator if the child exits before {@link stop}. */
  died: Promise<string>;
  /** Registers Deckhand's source host webhook with the emulator, once Deckhand listens on `port`. */
  listening(port: number): void;
  /** Stops the child (SIGTERM, then SIGKILL after a few seconds). */
  stop(): Promise<void>;
}

/** `bin/deckhand.mjs` of this installation. */
function entryScript(): string {
  const argv1 = process.argv[1];
  if (argv1 && /deckhand(\.mjs)?$/.test(argv1) && existsSync(argv1)) return realpathSync(argv1);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++, dir = dirname(dir)) {
    const candidate = join(dir, 'bin', 'deckhand.mjs');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('bin/deckhand.mjs not found');
}

/**
 * The values of the `  NAME=value` lines: the rest of the line, without the double quotes around a
 * value that has spaces (the calendar's application password, `NAME="abcd efgh …"`).
 */
export function printedValues(output: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const match of output.matchAll(/^[ \t]+([A-Z][A-Z0-9_]*)=(.*)$/gm)) {
    const raw = (match[2] as string).trim();
    const quoted = /^"(.*)"$/.exec(raw);
    values[match[1] as string] = quoted ? (quoted[1] as string) : raw;
  }
  return values;
}

/** Starts `deckhand sandbox` for `services`; rejects with one line when it cannot. */
export async function startSandboxChild(config: Config, services: ServiceName[]): Promise<SandboxChild> {
  const entry = entryScript();
  // The same code as this process: the compiled dist/ of this installation, or its sources.
  const dist = join(dirname(dirname(entry)), 'dist') + sep;
  const runner = fileURLToPath(import.meta.url).startsWith(dist) ? 'dist' : 'src';
  const child: ChildProcess = spawn(process.execPath, [entry, 'sandbox'], {
    env: {
      ...process.env,
      DECKHAND_RUN: runner,
      [SANDBOX_SERVICES_VARIABLE]: services.join(','),
      [SANDBOX_PARENT_VARIABLE]: '1',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
  });
  let output = '';
  let stopping = false;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
    child.once('error', (error) => resolve(error.message));
  });
  child.stdin?.on('error', () => undefined);
  const stop = async () => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no addresses within ${READY_TIMEOUT_MS / 1000} s`)),
        READY_TIMEOUT_MS,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Press Ctrl-C to stop')) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then((how) => {
        clearTimeout(timer);
        reject(new Error(`it exited (${how})`));
      });
    });
  } catch (error) {
    await stop();
    throw new Error(
      `deckhand: the sandbox emulators (deckhand sandbox) did not start: ${(error as Error).message}.`,
    );
  }
  child.stdout?.resume();
  const printed = printedValues(output);
  const values: Partial<Config> = { ...(printed as Partial<Config>) };
  if (services.includes('sourcehost')) {
    values.SOURCEHOST_REPO_HOSTS = [...config.SOURCEHOST_REPO_HOSTS, SANDBOX_MIRROR_HOST];
    values.SOURCEHOST_WEBHOOK_SECRET = config.SOURCEHOST_WEBHOOK_SECRET ?? randomBytes(32).toString('hex');
  }
  const tools = /^Tools: (.*)\.$/m.exec(output)?.[1]?.split(', ').filter(Boolean) ?? [];
  const toolPattern = /^Tool web addresses: (\S+)$/m.exec(output)?.[1];
  return {
    pid: child.pid ?? 0,
    services,
    values,
    tools,
    toolUrl: toolPattern ? (tool) => toolPattern.replace(TOOL_PLACEHOLDER, tool) : undefined,
    died: exited.then(
      (how) =>
        new Promise<string>((resolve) => {
          if (!stopping) resolve(`deckhand: the sandbox emulators process exited (${how}); stopping.`);
        }),
    ),
    listening(port) {
      // The address the in-process sandbox registers (accounts.ts).
      const base = config.PUBLIC_URL?.replace(/\/+$/, '') ?? `http://127.0.0.1:${port}`;
      if (values.SOURCEHOST_WEBHOOK_SECRET && child.stdin?.writable) {
        child.stdin.write(`hook ${base}${SOURCE_WEBHOOK_PATH} ${values.SOURCEHOST_WEBHOOK_SECRET}\n`);
      }
    },
    stop,
  };
}

/**
 * For `start`: the emulators' process when sandbox mode emulates any service (see service-modes.ts),
 * undefined when nothing is emulated, or the line to print when the process could not start.
 */
export async function emulatorsProcess(
  config: Config,
  sandbox: boolean,
  logger: Logger,
): Promise<SandboxChild | string | undefined> {
  if (!sandbox) return undefined;
  const modes = serviceModes(config, true);
  const services = emulatedServices(modes);
  if (services.length === 0) return undefined;
  try {
    const child = await startSandboxChild(config, services);
    logger.info({ pid: child.pid, services }, 'sandbox emulators started in their own process');
    return child;
  } catch (error) {
    return (error as Error).message;
  }
}
