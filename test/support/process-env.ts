/** The environment the Deckhand processes of one multi-process test share. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRedisEnv } from './redis';

/** How the processes of a multi-process test take jobs over and where they keep files. */
export interface ProcessEnvOptions {
  /** `QUEUE_LOCK_MS`: how soon a dead worker's job is taken over. */
  lockMs: number;
  /** `WATCH_POLL_MS`, when the test follows watches faster than the default. */
  watchPollMs?: number;
  /** The name prefix of a fresh `DATA_DIR` in the system's temporary folder, when they need one. */
  dataDir?: string;
}

/**
 * The environment every Deckhand process of one multi-process test shares: the test Redis under a
 * fresh key prefix, a fresh `SECRET_KEY`, a silent log, and what `options` sets. Spread platform and
 * service variables after it.
 */
export function processEnv(
  options: ProcessEnvOptions,
): Record<string, string> & { REDIS_KEY_PREFIX: string } {
  return {
    ...testRedisEnv(),
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    QUEUE_LOCK_MS: String(options.lockMs),
    ...(options.watchPollMs === undefined ? {} : { WATCH_POLL_MS: String(options.watchPollMs) }),
    ...(options.dataDir === undefined ? {} : { DATA_DIR: mkdtempSync(join(tmpdir(), options.dataDir)) }),
  };
}
