import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { translator } from '../../src/i18n/translate';
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
  async run({ args, services, invocation, say = translator(undefined) }) {
    // The dispatcher has checked the user's role on the tool (permission `write`); the tool must
    // also exist where Deckhand can reach it, or the binding would only defer the error.
    await mustReach(services, args.tool);
    const before = await services.bindings.get(invocation.conversationId);
    await services.bindings.set(invocation.conversationId, args.tool);
    return {
      text:
        before && before !== args.tool
          ? say.t('tool-bound-instead', args.tool, before)
          : say.t('tool-bound', args.tool),
      status: 'success',
    };
  },
});

/** `/tool unbind`: removes this conversation's binding. */
export const toolUnbindCommand = command({
  name: 'tool unbind',
  permission: 'read',
  sideEffect: true,
  async run({ services, invocation, say = translator(undefined) }) {
    const tool = await services.bindings.remove(invocation.conversationId);
    if (!tool)
      throw UsageError.inWords((say) => ({
        message: say.t('tool-unbind-none'),
        hint: say.t('tool-unbind-none-hint'),
      }));
    return {
      text: say.t('tool-unbound', tool),
      status: 'success',
    };
  },
});
