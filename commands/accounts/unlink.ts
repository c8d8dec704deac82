import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { translator } from '../../src/i18n/translate';
import type { VaultService } from '../../src/store/vault';
import { toolName } from '../args';
import { command } from './context';

const ENGLISH = translator('en');

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
  async run({ args, services, invocation, sayPrivately: say = ENGLISH }) {
    const { service, tool } = args;
    if (service === 'tool' && !tool) {
      throw UsageError.inWords((say) => ({ message: say.t('unlink-name-tool') }), {
        usage: '/unlink tool <tool>',
      });
    }
    if (service !== 'tool' && tool) {
      throw UsageError.inWords((say) => ({ message: say.t('unlink-takes-no-tool', service) }), {
        usage: `/unlink ${service}`,
      });
    }
    const slot: VaultService = service === 'tool' ? `tool:${tool}` : service;
    const removed = await services.accounts.vault.delete(invocation.user, slot);
    await services.accounts.pushCache.clear(invocation.user);
    if (!removed) {
      const text =
        service === 'tool'
          ? say.t('unlink-none-tool', tool as string)
          : service === 'source'
            ? say.t('unlink-none-source')
            : service === 'media'
              ? say.t('unlink-none-media')
              : say.t('unlink-none-calendar');
      return { text, status: 'info', visibility: 'private' };
    }
    const lines = [
      service === 'tool'
        ? say.t('unlink-removed-tool', tool as string)
        : service === 'source'
          ? say.t('unlink-removed-source')
          : service === 'media'
            ? say.t('unlink-removed-media')
            : say.t('unlink-removed-calendar'),
    ];
    const oauth = services.accounts.sourcehost.oauth;
    if (service === 'source' && oauth) {
      lines.push(say.t('unlink-revoke-source', oauth.revokeUrl()));
    } else if (service !== 'source') {
      lines.push(say.t('unlink-revoke-elsewhere'));
    }
    const links =
      service === 'source' && oauth ? [{ label: say.t('unlink-revoke-button'), url: oauth.revokeUrl() }] : [];
    return { text: lines.join('\n'), links, status: 'success', visibility: 'private' };
  },
});
