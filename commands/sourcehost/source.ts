import type { CardField } from '../../src/core/reply';
import { command } from './context';

/** `/source ratelimit`: every rate-limit category of the user's token (or of Deckhand's address). */
export const sourceRatelimitCommand = command({
  name: 'source ratelimit',
  permission: 'read',
  async run({ services, invocation }) {
    const linked = await services.accounts.credentials.source(invocation.user);
    const sourcehost = services.accounts.sourcehost;
    const client = linked ? sourcehost.forToken(linked.token) : sourcehost.anonymous();
    const overview = await client.account.rateLimit();
    const fields: CardField[] = Object.entries(overview.resources)
      .sort(([a], [b]) => (a === 'core' ? -1 : b === 'core' ? 1 : a.localeCompare(b)))
      .map(([name, window]) => ({
        label: name,
        value: `${window.remaining} of ${window.limit} left${window.used !== undefined ? ` (${window.used} used)` : ''}, resets`,
        time: { at: window.reset * 1000, relative: true },
        inline: true,
      }));
    return {
      title: linked
        ? `Source-host rate limits of ${linked.login}`
        : "Source-host rate limits of Deckhand's address",
      text: linked
        ? undefined
        : 'You have not linked an account (/link source), so these are the anonymous limits.',
      fields,
      status: 'info',
    };
  },
});
