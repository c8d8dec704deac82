/**
 * `/link tool|media|calendar`: link the user's own accounts so that Deckhand acts with their
 * rights (`/link source`, the OAuth web flow, is in `sourcehost/link-source.ts`). Credentials are accepted only privately: typed in a private conversation, in a form (modal), or in
 * the one-time secret page whose private link the bot sends; a secret typed in a channel is refused
 * (and the user told to rotate it).
 */
import { z } from 'zod';
import { formTarget } from '../../src/core/action-ref';
import type { CommandContext } from '../../src/core/command';
import { RefusedError, UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import type { SecretFormKind } from '../../src/store/links-secret-forms';
import type { CredentialValues } from '../../src/store/vault-credentials';
import { toolName } from '../args';
import { type AccountsServices, command } from './context';
import { verifyCredential } from './credential-check';

/** The refusal of a secret typed where others may see it. */
export function leakedSecret(): RefusedError {
  return new RefusedError(
    'Secrets are only accepted in a private conversation with Deckhand, a form, or the secret page it sends you, so nothing was stored.',
    {
      hint: 'Others may have seen the value here: treat it as leaked and rotate it (create a new one, revoke the old). Delete your message if you can.',
    },
  );
}

/**
 * Stores a credential typed in the command (private conversations and forms only), or asks for it
 * with a form and the secret page.
 */
async function storeOrAsk(
  ctx: CommandContext<Record<string, unknown>, AccountsServices>,
  kind: SecretFormKind,
  values: CredentialValues,
  given: boolean,
  form: {
    title: string;
    command: string;
    args: Record<string, unknown>;
    fields: { name: string; label: string; secret: boolean }[];
  },
  tool?: string,
): Promise<DraftCard> {
  const { invocation, services } = ctx;
  if (given && !invocation.isPrivate) throw leakedSecret();
  if (given) {
    const problem = services.accounts.credentials.check(kind, values);
    if (problem) throw new UsageError(`${problem} Nothing was stored.`);
    await verifyCredential(services, kind, values, tool);
    const what = await services.accounts.credentials.save(invocation.user, kind, values, tool);
    await services.accounts.pushCache.clear(invocation.user);
    return {
      text: `Stored ${what} for you. /whoami lists what you linked; /unlink removes it.`,
      status: 'success',
      visibility: 'private',
    };
  }
  const page = await services.accounts.secretForms.begin({
    user: invocation.user,
    conversationId: invocation.conversationId,
    isPrivate: invocation.isPrivate,
    kind,
    ...(tool ? { tool } : {}),
  });
  const opened = await ctx.openForm({
    title: form.title,
    intro: 'Stored encrypted for you only; never shown in the chat.',
    fields: form.fields.map((f) => ({ ...f, multiline: false })),
    command: form.command,
    args: form.args,
    submitLabel: 'Save',
  });
  return {
    title: form.title,
    text: opened
      ? 'Opened a form. You can also use this private page instead (valid 10 minutes, once):'
      : ctx.here?.noSecretsInText
        ? 'Enter it on this private page (valid 10 minutes, works once); secrets are never taken in chat text here:'
        : 'Enter it on this private page (valid 10 minutes, works once), or send the command with the value in a private conversation with Deckhand:',
    links: [{ label: 'Open the secret form', url: page }],
    status: 'info',
    visibility: 'private',
    audit: 'pending',
  };
}

/** `/link tool <tool> [token]`. */
export const linkToolCommand = command({
  name: 'link tool',
  args: z.object({
    tool: toolName,
    token: z.string().min(1).max(512).optional().describe('opt-token'),
  }),
  positional: ['tool', 'token'],
  examples: ['/link tool mytool', '/link tool mytool <token>   (in a private conversation)'],
  permission: 'read',
  selfService: true,
  sideEffect: true,
  secretArgs: ['token'],
  async run(ctx): Promise<DraftCard> {
    ctx.services.toolhost.forTool(ctx.args.tool, { deployToken: ctx.args.token ?? 'placeholder-token' });
    return storeOrAsk(
      ctx as never,
      'tool',
      { token: ctx.args.token },
      ctx.args.token !== undefined,
      {
        ...formTarget(linkToolCommand, { tool: ctx.args.tool }),
        title: `Deploy token of ${ctx.args.tool}`,
        fields: [{ name: 'token', label: 'Deploy token', secret: true }],
      },
      ctx.args.tool,
    );
  },
});

/** `/link media [key]`. */
export const linkMediaCommand = command({
  name: 'link media',
  args: z.object({ apiKey: z.string().min(1).max(512).optional().describe('opt-api-key') }),
  positional: ['apiKey'],
  examples: ['/link media', '/link media <key>   (in a private conversation)'],
  permission: 'read',
  sideEffect: true,
  secretArgs: ['apiKey'],
  async run(ctx): Promise<DraftCard> {
    return storeOrAsk(ctx as never, 'media', { apiKey: ctx.args.apiKey }, ctx.args.apiKey !== undefined, {
      ...formTarget(linkMediaCommand, {}),
      title: 'Media API key',
      fields: [{ name: 'apiKey', label: 'API key', secret: true }],
    });
  },
});

/** `/link calendar [username] [password]`. */
export const linkCalendarCommand = command({
  name: 'link calendar',
  args: z.object({
    username: z.string().min(1).max(100).optional().describe('opt-username'),
    password: z.string().min(1).max(200).optional().describe('opt-password'),
  }),
  positional: ['username', 'password'],
  examples: ['/link calendar', '/link calendar editor "abcd efgh ijkl mnop"   (in a private conversation)'],
  permission: 'read',
  sideEffect: true,
  secretArgs: ['password'],
  async run(ctx): Promise<DraftCard> {
    const { username, password } = ctx.args;
    return storeOrAsk(ctx as never, 'calendar', { username, password }, password !== undefined, {
      ...formTarget(linkCalendarCommand, username ? { username } : {}),
      title: 'Calendar account',
      fields: [
        ...(username ? [] : [{ name: 'username', label: 'Username', secret: false }]),
        { name: 'password', label: 'Application password', secret: true },
      ],
    });
  },
});
