import pino, { type Logger } from 'pino';
import { scrubSecrets } from './secrets';

export type { Logger } from 'pino';

/** Paths pino masks in every log object. */
const REDACT = [
  'token',
  '*.token',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'value',
  '*.value',
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

/**
 * Writes out every logger's buffered lines, first waiting for a file destination that is still
 * opening (exiting before that crashed with "sonic boom is not ready yet"). Call before `process.exit`.
 */
export async function flushLogs(): Promise<void> {
  for (const destination of destinations) {
    const opening = destination as Destination & { fd: number };
    if (opening.fd < 0) {
      await new Promise<void>((ready) => {
        const timer = setTimeout(ready, 2_000);
        opening.once('ready', () => {
          clearTimeout(timer);
          ready();
        });
      });
    }
    try {
      destination.flushSync();
    } catch {
      // nothing more can be written; exiting anyway
    }
  }
}

/** JSON logger to stderr or a file; known secrets and secret-named fields are redacted. */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.file
    ? pino.destination({ dest: options.file, mkdir: true, sync: false })
    : pino.destination({ dest: 2, sync: false });
  destinations.add(destination);
  return pino(
    {
      level: options.level,
      redact: { paths: REDACT, censor: '[redacted]' },
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
