import type { CardField } from '../../src/core/reply';
import { translator } from '../../src/i18n/translate';
import { command } from './context';

const ENGLISH = translator('en');

/** `/source ratelimit`: every rate-limit category of the user's token (or of Deckhand's address). */
export const sourceRatelimitCommand = command({
  name: 'source ratelimit',
  permission: 'read',
  async run({ services, invocation, say = ENGLISH }) {
    const linked = await services.accounts.credentials.source(invocation.user);
    const sourcehost = services.accounts.sourcehost;
    const client = linked ? sourcehost.forToken(linked.token) : sourcehost.anonymous();
    const overview = await client.account.rateLimit();
    const fields: CardField[] = Object.entries(overview.resources)
      .sort(([a], [b]) => (a === 'core' ? -1 : b === 'core' ? 1 : a.localeCompare(b)))
      .map(([name, window]) => ({
        label: name,
        value:
          window.used !== undefined
            ? say.t('source-ratelimit-left-used', window.remaining, window.limit, window.used)
            : say.t('source-ratelimit-left', window.remaining, window.limit),
        time: { at: window.reset * 1000, relative: true },
        inline: true,
      }));
    return {
      title: linked
        ? say.t('source-ratelimit-title', linked.login)
        : say.t('source-ratelimit-title-anonymous'),
      text: linked ? undefined : say.t('source-ratelimit-anonymous'),
      fields,
      status: 'info',
    };
  },
});
