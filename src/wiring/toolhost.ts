/** The tool platform's client factory over the embedded emulator. */
import { UsageError } from '../core/errors';
import type { ToolhostSandbox } from '../sandbox/toolhost';
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
    if (!this.sandbox.ctx.tools.has(tool)) {
      const known = [...this.sandbox.ctx.tools].sort().join(', ');
      throw new UsageError(`Tool ${tool} does not exist on the sandbox platform.`, {
        hint: `Its tools are: ${known}.`,
      });
    }
    return super.forTool(tool, options);
  }
}
