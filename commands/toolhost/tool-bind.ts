import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { toolName } from '../args';
import { command, type ToolhostServices } from './context';

/**
 * Throws when Deckhand cannot reach `tool`: no credentials for it, a sandbox without it, or a platform
 * that refuses the tool's own read (a certificate for another tool). A deploy-token-only tool cannot
 * read anything, so having its token is all that can be checked.
 */
async function mustReach(services: ToolhostServices, tool: string): Promise<void> {
  const client = services.toolhost.forTool(tool);
  if (client.hasCertificate) await client.jobs.quotas();
}

/** `/tool bind <tool>`: lets `<tool>` be left out of commands in this conversation. */
export const toolBindCommand = command({
  name: 'tool bind',
  args: z.object({ tool: toolName }),
  permission: 'write',
  async run({ args, services, invocation }) {
    // The dispatcher has checked the user's role on the tool (permission `write`); the tool must
    // also exist where Deckhand can reach it, or the binding would only defer the error.
    await mustReach(services, args.tool);
    const before = await services.bindings.get(invocation.conversationId);
    await services.bindings.set(invocation.conversationId, args.tool);
    const was = before && before !== args.tool ? ` (it was bound to ${before})` : '';
    return {
      text: `This conversation is now bound to ${args.tool}${was}: for example \`/deploy\` deploys ${args.tool}. /tool unbind undoes it.`,
      status: 'success',
    };
  },
});

/** `/tool unbind`: removes this conversation's binding. */
export const toolUnbindCommand = command({
  name: 'tool unbind',
  permission: 'read',
  sideEffect: true,
  async run({ services, invocation }) {
    const tool = await services.bindings.remove(invocation.conversationId);
    if (!tool)
      throw new UsageError('This conversation is not bound to a tool.', {
        hint: 'Bind one with /tool bind <tool>.',
      });
    return {
      text: `This conversation is no longer bound to ${tool}: commands here name their tool again.`,
      status: 'success',
    };
  },
});
