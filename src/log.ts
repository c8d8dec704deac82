import pino, { type Logger } from 'pino';
import { SECRET_FIELD_NAMES, scrubSecrets } from './secrets';

export type { Logger } from 'pino';

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

/**
 * JSON logger to stderr or a file; secret-named fields are redacted, and so are the registered secrets
 * this process knows of (see `scrubSecrets`).
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.file
    ? pino.destination({ dest: options.file, mkdir: true, sync: false })
    : pino.destination({ dest: 2, sync: false });
  destinations.add(destination);
  return pino(
    {
      level: options.level,
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
