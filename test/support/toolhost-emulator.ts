/**
 * A toolhost emulator for the tests that call its internal (mTLS) listener as one tool or another:
 * started before the file's tests, closed with its agents after them.
 */
import {
  startToolhostSandbox,
  type ToolhostSandbox,
  type ToolhostSandboxOptions,
} from '@deckhand/sandbox/toolhost';
import { Agent } from 'undici';
import { afterAll, beforeAll } from 'vitest';

/** The agents of a {@link useToolhostEmulator}. */
export interface ToolAgents {
  /** The agent that presents `tool`'s client certificate (one per tool, reused). */
  agentFor(tool: string): Agent;
}

/**
 * Starts an emulator with `options` before the file's tests and hands it to `onStarted` (to keep it,
 * seed it, or replace an area with a fake); closes it and every agent after the tests.
 */
export function useToolhostEmulator(
  options: ToolhostSandboxOptions,
  onStarted: (sandbox: ToolhostSandbox) => void | Promise<void>,
): ToolAgents {
  let sandbox: ToolhostSandbox | undefined;
  const agents = new Map<string, Agent>();
  beforeAll(async () => {
    sandbox = await startToolhostSandbox(options);
    await onStarted(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
    await Promise.all([...agents.values()].map((agent) => agent.close()));
  });
  return {
    agentFor(tool) {
      let agent = agents.get(tool);
      if (!agent) {
        if (!sandbox) throw new Error('the toolhost emulator has not started');
        const { cert, key } = sandbox.certFor(tool);
        agent = new Agent({ connect: { ca: sandbox.ca, cert, key } });
        agents.set(tool, agent);
      }
      return agent;
    },
  };
}
