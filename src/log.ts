import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { SECRET_FIELD_NAMES, scrubSecrets } from './secrets';

export type { Logger } from 'pino';

/** What every log line written while one command's work runs is tagged with. */
interface InvocationScope {
  invocationId: string;
}

const scope = new AsyncLocalStorage<InvocationScope>();

/** Digits and capitals without the look-alikes I, L, O, U (Crockford's base 32). */
const ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random bytes drawn ahead for {@link newInvocationId}: 128 ids' worth. */
const idPool = Buffer.alloc(5 * 128);
let idPoolNext = idPool.length;

/**
 * A fresh invocation id: 8 characters of Crockford base 32 (40 random bits), short enough to read
 * out of a chat reply (it is the reference shown for our own failures) and unique enough to find a
 * command's lines in a day of logs. Every web request makes one, so the random bytes are drawn 128
 * ids at a time (one `randomFillSync` instead of a system call per id, as Node's own `randomUUID`
 * caches its random data).
 */
export function newInvocationId(): string {
  if (idPoolNext === idPool.length) {
    randomFillSync(idPool);
    idPoolNext = 0;
  }
  // 40 bits fit a double exactly: the first byte times 2^32, plus the other four as an unsigned int.
  let bits = (idPool[idPoolNext] as number) * 2 ** 32 + idPool.readUInt32BE(idPoolNext + 1);
  idPoolNext += 5;
  let id = '';
  for (let i = 0; i < 8; i++) {
    id = ID_ALPHABET[bits % 32] + id;
    bits = Math.floor(bits / 32);
  }
  return id;
}

/**
 * Runs `fn` as part of the invocation `invocationId`: every line any logger writes while it runs —
 * through every `await`, timer and callback it starts — carries `invocation: <id>`. Queue jobs
 * enqueued meanwhile carry the id in their data and their processors run under it again (see
 * `src/queue/job-context.ts`), so a command's later work in another process is tagged too.
 */
export function runWithInvocation<T>(invocationId: string, fn: () => T): T {
  return scope.run({ invocationId }, fn);
}

/** The id of the invocation whose work is running now, if any. */
export function currentInvocationId(): string | undefined {
  return scope.getStore()?.invocationId;
}

/** The pino mixin that tags a line with the current invocation. */
function invocationMixin(): Record<string, unknown> {
  const invocationId = scope.getStore()?.invocationId;
  return invocationId ? { invocation: invocationId } : {};
}

let processLogger: Logger | undefined;

/**
 * Sets the logger of this process for code that has none of its own (the shared HTTP layer of the
 * service clients). The application's composition root calls it once with its logger.
 */
export function useProcessLogger(logger: Logger): void {
  processLogger = logger;
}

/** The logger set by {@link useProcessLogger}, or a silent one. */
export function getProcessLogger(): Logger {
  return processLogger ?? silentLogger;
}

/**
 * Paths pino masks in every log object: each secret field name ({@link SECRET_FIELD_NAMES}, the one
 * list) at the top level and one level down, and request headers.
 */
export const REDACT_PATHS = [
  ...SECRET_FIELD_NAMES.flatMap((name) => [name, `*.${name}`]),
  '*.headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** Options for {@link createLogger}. */
export interface LoggerOptions {
  level: string;
  /** Write to this file instead of stderr (the interactive shell does, so logs don't garble the chat). */
  file?: string;
}

type Destination = ReturnType<typeof pino.destination>;

/** Destinations of the loggers this process made, flushed by {@link flushLogs} before it exits. */
const destinations = new Set<Destination>();

/** How long {@link flushLogs} waits for a file to open, or for a write already under way to end. */
const FLUSH_WAIT_MS = 10_000;

/** Resolves when `destination` emits `event`, or after {@link FLUSH_WAIT_MS}. */
function settled(destination: Destination, event: 'ready' | 'drain'): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FLUSH_WAIT_MS);
    destination.once(event, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Writes out every logger's buffered lines, first waiting for a file destination that is still
 * opening (exiting before that crashed with "sonic boom is not ready yet"), then for the writes
 * already handed to the file system (on a busy machine they end later), so every line is in the file,
 * in order. Call before `process.exit`, or before reading the log file.
 */
export async function flushLogs(): Promise<void> {
  for (const destination of destinations) {
    const state = destination as Destination & { fd: number; _writing?: boolean };
    if (state.fd < 0) await settled(destination, 'ready');
    // A write under way is left to end first: writing the rest synchronously beside it would put
    // the later lines in the file before it.
    if (state._writing) await settled(destination, 'drain');
    try {
      destination.flushSync();
    } catch {
      // nothing more can be written; exiting anyway
    }
  }
}

/**
 * JSON logger to stderr or a file; secret-named fields are redacted, and so are the registered secrets
 * this process knows of (see `scrubSecrets`). Lines written inside {@link runWithInvocation} carry
 * the invocation id as `invocation`.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.file
    ? pino.destination({ dest: options.file, mkdir: true, sync: false })
    : pino.destination({ dest: 2, sync: false });
  destinations.add(destination);
  return pino(
    {
      level: options.level,
      mixin: invocationMixin,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === 'string' ? scrubSecrets(a) : a));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
      formatters: {
        log(object) {
          return JSON.parse(scrubSecrets(JSON.stringify(object))) as Record<string, unknown>;
        },
      },
    },
    destination,
  );
}

/** A logger that drops everything (tests that don't look at logs). */
export const silentLogger: Logger = pino({ level: 'silent' });
