/**
 * `/link tool|media|calendar`: link the user's own accounts so that Deckhand acts with their
 * rights (`/link source`, the OAuth web flow, is in `sourcehost/link-source.ts`). Credentials are accepted only privately: typed in a private conversation, in a form (modal), or in
 * the one-time secret page whose private link the bot sends; a secret typed in a channel is refused
 * (and the user told to rotate it).
 */
import { z } from 'zod';
import { formTarget } from '../../src/core/action-ref';
import type { CommandContext } from '../../src/core/command';
import { type RefusedError, UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { SecretFormKind } from '../../src/store/links-secret-forms';
import type { CredentialValues } from '../../src/store/vault-credentials';
import { toolName } from '../args';
import { type AccountsServices, command } from './context';
import { refusedInWords, verifyCredential } from './credential-check';

const ENGLISH = translator('en');

/** The refusal of a secret typed where others may see it. */
export function leakedSecret(): RefusedError {
  return refusedInWords((say) => ({
    message: say.t('link-secret-not-private'),
    hint: say.t('link-secret-not-private-hint'),
  }));
}

/** What was stored, in the reader's words. */
function storedText(kind: SecretFormKind, values: CredentialValues, say: Translator, tool?: string): string {
  if (kind === 'tool') return say.t('link-stored-tool', tool as string);
  if (kind === 'media') return say.t('link-stored-media');
  return say.t('link-stored-calendar', values.username as string);
}

/**
 * Stores a credential typed in the command (private conversations and forms only), or asks for it
 * with a form and the secret page. What it answers only the reader sees: in their language.
 */
async function storeOrAsk(
  ctx: CommandContext<Record<string, unknown>, AccountsServices>,
  kind: SecretFormKind,
  values: CredentialValues,
  given: boolean,
  form: {
    title: (say: Translator) => string;
    command: string;
    args: Record<string, unknown>;
    fields: (say: Translator) => { name: string; label: string; secret: boolean }[];
  },
  tool?: string,
): Promise<DraftCard> {
  const { invocation, services } = ctx;
  const say = ctx.sayPrivately ?? ENGLISH;
  if (given && !invocation.isPrivate) throw leakedSecret();
  if (given) {
    const problem = services.accounts.credentials.check(kind, values);
    if (problem) throw UsageError.inWords((say) => ({ message: say.t('link-not-stored', problem) }));
    await verifyCredential(services, kind, values, tool);
    await services.accounts.credentials.save(invocation.user, kind, values, tool);
    await services.accounts.pushCache.clear(invocation.user);
    return {
      text: storedText(kind, values, say, tool),
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
    title: form.title(say),
    intro: say.t('link-form-intro'),
    fields: form.fields(say).map((f) => ({ ...f, multiline: false })),
    command: form.command,
    args: form.args,
    submitLabel: say.t('secret-form-save'),
  });
  return {
    title: form.title(say),
    text: opened
      ? say.t('link-form-opened')
      : ctx.here?.noSecretsInText
        ? say.t('link-page-only')
        : say.t('link-page-or-private'),
    links: [{ label: say.t('link-page-open'), url: page }],
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
        title: (say) => say.t('account-deploy-token-of', ctx.args.tool),
        fields: (say) => [{ name: 'token', label: say.t('secret-field-token'), secret: true }],
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
      title: (say) => say.t('secret-field-api-key'),
      fields: (say) => [{ name: 'apiKey', label: say.t('link-field-api-key'), secret: true }],
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
      title: (say) => say.t('link-calendar-title'),
      fields: (say) => [
        ...(username ? [] : [{ name: 'username', label: say.t('link-field-username'), secret: false }]),
        { name: 'password', label: say.t('secret-field-password'), secret: true },
      ],
    });
  },
});
