import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from 'pino';
import { scrubSecrets } from '../../src/secrets';

function line(parts: unknown[]): string {
  return scrubSecrets(
    parts
      .map((p) => (p instanceof Error ? p.message : typeof p === 'string' ? p : JSON.stringify(p)))
      .join(' '),
  );
}

/**
 * Bolt/WebClient/Socket Mode logging into Deckhand's pino logger. The SDKs' debug output is dropped
 * on purpose: it prints request bodies (envvar values typed into a modal, tokens in OAuth exchanges).
 * Their info lines (rate-limit waits, reconnects) are logged at debug level, warnings and errors as such.
 */
export function slackLogger(logger: Logger): SlackLogger {
  const child = logger.child({ component: 'slack-sdk' });
  let level: LogLevel = LogLevel.INFO;
  return {
    debug() {},
    info: (...parts: unknown[]) => child.debug(line(parts)),
    warn: (...parts: unknown[]) => child.warn(line(parts)),
    error: (...parts: unknown[]) => child.error(line(parts)),
    setLevel(next: LogLevel) {
      level = next === LogLevel.DEBUG ? LogLevel.INFO : next;
    },
    getLevel: () => level,
    setName() {},
  };
}
