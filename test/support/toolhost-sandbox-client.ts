import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { afterAll, beforeAll } from 'vitest';
import { type ToolhostClient, ToolhostClientFactory } from '../../src/services/toolhost';

/** A toolhost emulator, a client factory on it (no retries), and the client of one tool. */
export interface ToolhostSandboxClient {
  sandbox: ToolhostSandbox;
  factory: ToolhostClientFactory;
  client: ToolhostClient;
}

/**
 * Starts a toolhost emulator (20 ms steps, plus `extraTools`) and a client of `tool` on it before the
 * file's tests, hands them to `onStarted`, and closes both after the tests.
 */
export function useToolhostSandboxClient(
  options: { tool: string; timeoutMs: number; extraTools?: string[] },
  onStarted: (started: ToolhostSandboxClient) => void,
): void {
  let started: ToolhostSandboxClient | undefined;
  beforeAll(async () => {
    const sandbox = await startToolhostSandbox({
      stepMs: 20,
      ...(options.extraTools ? { tools: options.extraTools } : {}),
    });
    const factory = ToolhostClientFactory.forSandbox(sandbox, { retries: 0, timeoutMs: options.timeoutMs });
    started = { sandbox, factory, client: factory.forTool(options.tool) };
    onStarted(started);
  });
  afterAll(async () => {
    await started?.factory.close();
    await started?.sandbox.close();
  });
}
