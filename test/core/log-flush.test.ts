/**
 * `flushLogs` leaves every line in the log file, even when the file system is slow to write: here
 * libuv's thread pool (which does the file writes of an asynchronous destination) is kept busy, so the
 * write already under way when the flush starts ends only later.
 */
import { pbkdf2 } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, flushLogs } from '../../src/log';
import { waitFor } from '../support/wait';

/** Keeps every thread of libuv's pool busy for a while (4 threads unless UV_THREADPOOL_SIZE says). */
function busyThreadPool(): Promise<unknown> {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  return Promise.all(
    Array.from(
      { length: threads },
      () => new Promise((resolve) => pbkdf2('x', 'y', 300_000, 64, 'sha512', resolve)),
    ),
  );
}

describe('flushing the logs', () => {
  it('leaves every line in the file when its writes are slow', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'deckhand-log-flush-')), 'deckhand.log');
    const logger = createLogger({ level: 'info', file });
    logger.info('opening');
    await flushLogs();
    // Nothing is being written any more (the last write's callback has run): the next line is
    // handed to the file system at once.
    await waitFor(() => readFileSync(file, 'utf8').includes('opening'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const busy = busyThreadPool();
    logger.info({ n: 1 }, 'first');
    logger.info({ n: 2 }, 'second');
    await flushLogs();
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(lines).toEqual(['opening', 'first', 'second']);
    await busy;
  }, 30_000);
});
