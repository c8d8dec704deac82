import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import type { App } from '../../src/wiring';
import { startTestApp, type TestApp } from './app';
import { closeAll, useStarted } from './started';

/** A test app on the sandbox, its toolhost emulator, and a tool-platform client on that emulator. */
export interface ToolhostTestApp {
  t: TestApp;
  sandbox: ToolhostSandbox;
  platform: ToolhostClientFactory;
}

/** The toolhost emulator of a Deckhand started on the sandbox. */
export function toolhostOf(app: App): ToolhostSandbox {
  const sandbox = app.emulators.toolhost;
  if (!sandbox) throw new Error('this Deckhand runs no toolhost emulator (start it on the sandbox)');
  return sandbox;
}

/**
 * Starts what `start` starts (a Deckhand on the sandbox: a test app, a bot on a fake platform) and a
 * tool-platform client on its toolhost emulator before the file's tests, and hands both to
 * `onStarted`; closes the client, then what `start` started, after the tests.
 */
export function useWithToolhostClient<H extends { app: App; close(): Promise<void> }>(
  start: () => Promise<H>,
  onStarted: (started: H, platform: ToolhostClientFactory) => void,
): void {
  useStarted(
    async () => {
      const started = await start();
      const platform = ToolhostClientFactory.forSandbox(toolhostOf(started.app));
      return { started, platform, close: () => closeAll(platform, started) };
    },
    ({ started, platform }) => onStarted(started, platform),
  );
}

/**
 * Starts a test app and a tool-platform client on its toolhost emulator before the file's tests,
 * hands them to `onStarted`, and closes both after the tests.
 */
export function useToolhostApp(onStarted: (started: ToolhostTestApp) => void): void {
  useWithToolhostClient(startTestApp, (t, platform) =>
    onStarted({ t, sandbox: toolhostOf(t.app), platform }),
  );
}
