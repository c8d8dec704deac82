import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { afterAll, beforeAll } from 'vitest';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { startTestApp, type TestApp } from './app';

/** A test app on the sandbox, its toolhost emulator, and a tool-platform client on that emulator. */
export interface ToolhostTestApp {
  t: TestApp;
  sandbox: ToolhostSandbox;
  platform: ToolhostClientFactory;
}

/**
 * Starts a test app and a tool-platform client on its toolhost emulator before the file's tests,
 * hands them to `onStarted`, and closes both after the tests.
 */
export function useToolhostApp(onStarted: (started: ToolhostTestApp) => void): void {
  let started: ToolhostTestApp | undefined;
  beforeAll(async () => {
    const t = await startTestApp();
    const sandbox = t.app.emulators.toolhost as ToolhostSandbox;
    started = { t, sandbox, platform: ToolhostClientFactory.forSandbox(sandbox) };
    onStarted(started);
  });
  afterAll(async () => {
    await started?.platform.close();
    await started?.t.close();
  });
}
