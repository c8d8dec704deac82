/** The start and stop of what a test file runs against (a bot on a fake platform, a test app, …). */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/**
 * Closes each of `started` in turn, passing over those a failed `beforeAll` never started: the
 * `afterAll` of a test file that starts several servers, fakes and clients.
 */
export async function closeAll(...started: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  for (const each of started) await each?.close();
}

/**
 * Starts `start()` before the file's tests and hands it to `onStarted`; closes it after them (each
 * within `hookMs` when given, else the configured hook timeout).
 */
export function useStarted<H extends { close(): Promise<void> }>(
  start: () => Promise<H>,
  onStarted: (started: H) => void,
  hookMs?: number,
): void {
  let started: H | undefined;
  beforeAll(async () => {
    started = await start();
    onStarted(started);
  }, hookMs);
  afterAll(async () => {
    await started?.close();
  }, hookMs);
}

/**
 * {@link useStarted} for a harness with a fake platform: after each test, the fake has seen no
 * request the real platform would refuse.
 */
export function useFakePlatform<
  H extends { close(): Promise<void>; fake: { violations: readonly unknown[] } },
>(start: () => Promise<H>, onStarted: (started: H) => void): void {
  let started: H | undefined;
  useStarted(start, (harness) => {
    started = harness;
    onStarted(harness);
  });
  afterEach(() => {
    expect(started?.fake.violations).toEqual([]);
  });
}
