/**
 * `/link source`: links the user's source-host account with the OAuth web flow (a private authorize
 * link), and the card other source-host commands show when a link is missing.
 */
import { z } from 'zod';
import type { Invocation } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import { translators } from '../../src/core/languages';
import type { DraftCard } from '../../src/core/reply';
import type { Translator } from '../../src/i18n/translate';
import { SCOPES, unionScopes } from '../../src/services/sourcehost';
import { command, type SourcehostServices } from './context';

/**
 * The private card with the authorize link, in the reader's language; `reason` (first line) is said
 * in it too.
 */
export async function linkSourceCard(
  services: SourcehostServices,
  invocation: Invocation,
  scopes: readonly string[],
  reason: (say: Translator) => string,
  replay?: { command: string; args: Record<string, unknown> },
): Promise<DraftCard> {
  const linker = services.accounts.linker;
  if (!linker.configured) {
    throw UsageError.inWords((say) => ({
      message: say.t('link-source-not-set-up'),
      hint: say.t('link-source-not-set-up-hint'),
    }));
  }
  const say = translators(invocation).sayPrivately;
  const { url } = await linker.begin({
    user: invocation.user,
    conversationId: invocation.conversationId,
    isPrivate: invocation.isPrivate,
    scopes,
    ...(replay ? { replay } : {}),
  });
  return {
    title: say.t('link-source-title'),
    text: `${reason(say)}\n${say.t('link-source-open')}${replay ? ` ${say.t('link-source-runs-again', `/${replay.command}`)}` : ''}`,
    fields: [{ label: say.t('link-source-scopes'), value: scopes.join(', ') }],
    links: [{ label: say.t('link-source-sign-in'), url }],
    status: 'info',
    visibility: 'private',
    ...(replay ? { deferred: true } : { audit: 'pending' as const }),
  };
}

/** `/link source`. */
export const linkSourceCommand = command({
  name: 'link source',
  args: z.object({
    scopes: z
      .array(z.string().regex(/^[a-z_:]{1,40}$/))
      .optional()
      .describe('opt-scopes')
      .meta({ hidden: true }),
  }),
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    const current = await services.accounts.credentials.source(invocation.user);
    const scopes = unionScopes(unionScopes(SCOPES.link, current?.scopes ?? []), args.scopes ?? []);
    const reason = (say: Translator) =>
      current ? say.t('link-source-again', current.login) : say.t('link-source-reason');
    return linkSourceCard(services, invocation, scopes, reason);
  },
});
