/** The tool platform's client factory over the embedded emulator. */

import type { ToolhostSandbox } from '@deckhand/sandbox';
import { UsageError } from '../core/errors';
import { type ForToolOptions, type ToolhostClient, ToolhostClientFactory } from '../services/toolhost';

/** In the sandbox, an unknown tool is a usage error that names the tools that exist. */
export class SandboxToolhostFactory extends ToolhostClientFactory {
  constructor(
    private readonly sandbox: ToolhostSandbox,
    timeoutMs: number,
  ) {
    super({
      externalUrl: sandbox.externalUrl,
      internalUrl: sandbox.internalUrl,
      ca: sandbox.ca,
      certificates: (tool) => (sandbox.ctx.tools.has(tool) ? sandbox.certFor(tool) : undefined),
      publicUrl: (tool) => sandbox.publicUrlFor(tool),
      timeoutMs,
    });
  }

  override forTool(tool: string, options?: ForToolOptions): ToolhostClient {
    if (!this.sandbox.ctx.tools.has(tool)) throw unknownTool(tool, this.sandbox.ctx.tools);
    return super.forTool(tool, options);
  }
}

function unknownTool(tool: string, tools: Iterable<string>): UsageError {
  const names = [...tools].sort().join(', ');
  return UsageError.inWords((say) => ({
    message: say.t('sandbox-unknown-tool', tool),
    hint: say.t('sandbox-tools', names),
  }));
}

/**
 * The same usage error for the emulator in its own process (`start --sandbox` with a chat platform,
 * sandbox-child.ts), whose tools it printed: `factory` (over its URLs) refuses any other tool.
 */
export function limitToSandboxTools<F extends ToolhostClientFactory>(
  factory: F,
  tools: readonly string[],
): F {
  const forTool = factory.forTool.bind(factory);
  factory.forTool = (tool, options) => {
    if (!tools.includes(tool)) throw unknownTool(tool, tools);
    return forTool(tool, options);
  };
  return factory;
}
