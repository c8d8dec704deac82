/**
 * `/link source`: links the user's source-host account with the OAuth web flow (a private authorize
 * link), and the card other source-host commands show when a link is missing.
 */
import { z } from 'zod';
import type { Invocation } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { SCOPES, unionScopes } from '../../src/services/sourcehost';
import { command, type SourcehostServices } from './context';

/** The private card with the authorize link. */
export async function linkSourceCard(
  services: SourcehostServices,
  invocation: Invocation,
  scopes: readonly string[],
  reason: string,
  replay?: { command: string; args: Record<string, unknown> },
): Promise<DraftCard> {
  const linker = services.accounts.linker;
  if (!linker.configured) {
    throw new UsageError('Linking source-host accounts is not set up on this Deckhand.', {
      hint: 'An admin sets SOURCEHOST_CLIENT_ID and SOURCEHOST_CLIENT_SECRET (the OAuth application).',
    });
  }
  const { url } = await linker.begin({
    user: invocation.user,
    conversationId: invocation.conversationId,
    isPrivate: invocation.isPrivate,
    scopes,
    ...(replay ? { replay } : {}),
  });
  return {
    title: 'Link your source-host account',
    text: `${reason}\nOpen the link yourself within 10 minutes, sign in and approve. It works once, in the browser that opens it first: do not forward it.${replay ? ` /${replay.command} runs again once you are linked.` : ''}`,
    fields: [{ label: 'Permissions asked', value: scopes.join(', ') }],
    links: [{ label: 'Sign in to the source host', url }],
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
    const reason = current
      ? `You are linked as ${current.login}; this links again (another account, or more permissions).`
      : 'Deckhand acts on the source host with your rights, never more.';
    return linkSourceCard(services, invocation, scopes, reason);
  },
});
