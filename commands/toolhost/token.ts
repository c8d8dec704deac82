import type { Invocation } from '../../src/core/command';
import { UpstreamError, UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { mustExist } from '../../src/core/target';
import { type MessageKey, type Translator, t, translator } from '../../src/i18n/translate';
import type { DeployToken, ToolhostClient } from '../../src/services/toolhost';
import { formatUtc, withWarnings } from '../format';
import { command, toolCommand } from './context';

import { toolArgs } from './signatures';

const ENGLISH = translator('en');

/** Token values are only ever shown in a private conversation; elsewhere the command is refused. */
function requirePrivate(invocation: Invocation, what: string): void {
  if (!invocation.isPrivate) {
    throw UsageError.inWords((say) => ({
      message: say.t('token-private-only', what),
      hint: say.t('token-private-hint'),
    }));
  }
}

/** How long a deploy token lasts from its creation (components-api `token_lifetime`, see specs/toolforge/README.md). */
const TOKEN_LIFETIME_DAYS = 365;
const DAY_MS = 86_400_000;

/** `It expires on 2027-10-24 00:12 UTC, in 334 days.`, from the token's creation date. */
export function tokenExpiry(say: Translator, creationDate: string | undefined, now = Date.now()): string {
  const created = creationDate ? new Date(creationDate) : undefined;
  if (!created || Number.isNaN(created.getTime())) {
    return say.t('token-lifetime', TOKEN_LIFETIME_DAYS);
  }
  const expires = new Date(created.getTime() + TOKEN_LIFETIME_DAYS * DAY_MS);
  const left = Math.ceil((expires.getTime() - now) / DAY_MS);
  if (left <= 0) return say.t('token-expired', formatUtc(expires));
  return say.t('token-expires', formatUtc(expires), left);
}

function tokenCard(tool: string, token: DeployToken, headline: MessageKey, say: Translator): DraftCard {
  const created = token.creation_date ? new Date(token.creation_date) : undefined;
  return {
    title: say.t('token-card-title', tool),
    text: say.t('token-card-text', say.t(headline), tool, tokenExpiry(say, token.creation_date)),
    fields: [
      { label: say.t('token-field-token'), value: token.token },
      ...(created ? [{ label: say.t('token-field-created'), value: formatUtc(created) }] : []),
    ],
    status: 'info',
    visibility: 'private',
  };
}

/**
 * A command that shows a token value, so only in a private conversation: `/token show|create|refresh`.
 */
function tokenValueCommand(
  verb: 'show' | 'create' | 'refresh',
  headline: MessageKey,
  call: (client: ToolhostClient) => Promise<DeployToken>,
) {
  return command({
    name: `token ${verb}`,
    args: toolArgs,
    examples: [`/token ${verb} mytool`],
    permission: 'write',
    sideEffect: verb !== 'show',
    async run({ args, services, invocation, sayPrivately = ENGLISH }) {
      requirePrivate(invocation, `/token ${verb}`);
      const client = services.toolhost.forTool(args.tool);
      const token = await call(client);
      // The platform's own token: a secret everywhere, in every process, from now on.
      await services.accounts.secrets.register(token.token);
      return withWarnings(tokenCard(args.tool, token, headline, sayPrivately), client);
    },
  });
}

/** `/token show <tool>`. */
export const tokenShowCommand = tokenValueCommand('show', 'token-headline-show', (c) =>
  c.components.getDeployToken(),
);

/** `/token create <tool>`. */
export const tokenCreateCommand = tokenValueCommand('create', 'token-headline-create', (c) =>
  c.components.createDeployToken().catch((error: unknown) => {
    // components-api answers 409 when the tool already has one (its own advice names its HTTP route).
    if (error instanceof UpstreamError && error.status === 409) {
      const taken = new UpstreamError(
        'toolhost',
        409,
        t('en', 'token-exists', c.tool),
        t('en', 'token-exists-hint', c.tool),
      );
      taken.words = (say) => ({
        message: say.t('token-exists', c.tool),
        hint: say.t('token-exists-hint', c.tool),
      });
      throw taken;
    }
    throw error;
  }),
);

/** `/token refresh <tool>`: replaces the token with a new one. */
export const tokenRefreshCommand = tokenValueCommand('refresh', 'token-headline-refresh', (c) =>
  c.components.refreshDeployToken(),
);

/** `/token delete <tool>` (confirmed first). */
export const tokenDeleteCommand = toolCommand({
  name: 'token delete',
  permission: 'write',
  confirm: (args, _target, say = ENGLISH) => say.t('token-delete-confirm', args.tool),
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const token = await mustExist(
      () => client.components.getDeployToken(),
      (say) => ({ message: say.t('token-delete-none', args.tool) }),
    );
    await services.accounts.secrets.register(token.token);
    // The creation date tells a refreshed token apart; the token itself is never stored.
    return {
      label: t('en', 'token-label', args.tool),
      args,
      ...(token.creation_date ? { version: token.creation_date } : {}),
    };
  },
  async run({ args, client, say = ENGLISH }) {
    await client.components.deleteDeployToken();
    return { text: say.t('token-deleted', args.tool), status: 'success' };
  },
});
