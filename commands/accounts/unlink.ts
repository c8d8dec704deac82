import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import type { VaultService } from '../../src/store/vault';
import { toolName } from '../args';
import { command } from './context';

/** `/unlink <service> [tool]`: deletes a stored credential; for the source host, says where to revoke it. */
export const unlinkCommand = command({
  name: 'unlink',
  args: z.object({
    service: z.enum(['source', 'tool', 'media', 'calendar']).describe('opt-service'),
    tool: toolName.optional().describe('opt-tool-unlink'),
  }),
  positional: ['service', 'tool'],
  examples: ['/unlink source', '/unlink tool mytool', '/unlink media'],
  permission: 'read',
  selfService: true,
  sideEffect: true,
  async run({ args, services, invocation }) {
    if (args.service === 'tool' && !args.tool) {
      throw new UsageError('Name the tool whose deploy token to remove.', { usage: '/unlink tool <tool>' });
    }
    if (args.service !== 'tool' && args.tool) {
      throw new UsageError(`/unlink ${args.service} takes no tool.`, { usage: `/unlink ${args.service}` });
    }
    const slot: VaultService = args.service === 'tool' ? `tool:${args.tool}` : args.service;
    const label = args.service === 'tool' ? `deploy token of ${args.tool}` : `${args.service} account`;
    const removed = await services.accounts.vault.delete(invocation.user, slot);
    await services.accounts.pushCache.clear(invocation.user);
    if (!removed)
      return {
        text: `Nothing to unlink: you have no stored ${label}.`,
        status: 'info',
        visibility: 'private',
      };
    const lines = [`Removed your ${label} from Deckhand.`];
    const oauth = services.accounts.sourcehost.oauth;
    if (args.service === 'source' && oauth) {
      lines.push(
        `Deckhand's access stays granted on the source host until you revoke it there: ${oauth.revokeUrl()}`,
      );
    } else if (args.service !== 'source') {
      lines.push('If you no longer need it, revoke it at the service too.');
    }
    const links =
      args.service === 'source' && oauth
        ? [{ label: 'Revoke on the source host', url: oauth.revokeUrl() }]
        : [];
    return { text: lines.join('\n'), links, status: 'success', visibility: 'private' };
  },
});
