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

/**
 * JSON logger to stderr or a file; secret-named fields are redacted, and so are the registered secrets
 * this process knows of (see `scrubSecrets`).
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.file
    ? pino.destination({ dest: options.file, mkdir: true, sync: false })
    : pino.destination({ dest: 2, sync: false });
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
