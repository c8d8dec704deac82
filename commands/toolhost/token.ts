import type { Invocation } from '../../src/core/command';
import { UpstreamError, UsageError } from '../../src/core/errors';
import { plural } from '../../src/core/plural';
import type { DraftCard } from '../../src/core/reply';
import { mustExist } from '../../src/core/target';
import type { DeployToken, ToolhostClient } from '../../src/services/toolhost';
import { formatUtc, withWarnings } from '../format';
import { command, toolCommand } from './context';
import { toolArgs } from './signatures';

/** Token values are only ever shown in a private conversation; elsewhere the command is refused. */
function requirePrivate(invocation: Invocation, what: string): void {
  if (!invocation.isPrivate) {
    throw new UsageError(
      `${what} shows a secret, so it only works in a private conversation with Deckhand.`,
      {
        hint: 'Send the same command to Deckhand in a direct message. Nothing was changed here.',
      },
    );
  }
}

/** How long a deploy token lasts from its creation (components-api `token_lifetime`, see specs/toolforge/README.md). */
const TOKEN_LIFETIME_DAYS = 365;
const DAY_MS = 86_400_000;

/** `It expires on 2027-10-24 00:12 UTC, in 334 days.`, from the token's creation date. */
export function tokenExpiry(creationDate: string | undefined, now = Date.now()): string {
  const created = creationDate ? new Date(creationDate) : undefined;
  if (!created || Number.isNaN(created.getTime())) {
    return `A deploy token lasts ${TOKEN_LIFETIME_DAYS} days from its creation.`;
  }
  const expires = new Date(created.getTime() + TOKEN_LIFETIME_DAYS * DAY_MS);
  const left = Math.ceil((expires.getTime() - now) / DAY_MS);
  if (left <= 0) return `It expired on ${formatUtc(expires)}: refresh it with /token refresh.`;
  return `It expires on ${formatUtc(expires)}, in ${plural(left, 'day')}.`;
}

function tokenCard(tool: string, token: DeployToken, headline: string): DraftCard {
  const created = token.creation_date ? new Date(token.creation_date) : undefined;
  return {
    title: `Deploy token of ${tool}`,
    text: `${headline}\nKeep it secret: anyone with it can deploy ${tool}. ${tokenExpiry(token.creation_date)}`,
    fields: [
      { label: 'Token', value: token.token },
      ...(created ? [{ label: 'Created', value: formatUtc(created) }] : []),
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
  headline: string,
  call: (client: ToolhostClient) => Promise<DeployToken>,
) {
  return command({
    name: `token ${verb}`,
    args: toolArgs,
    examples: [`/token ${verb} mytool`],
    permission: 'write',
    sideEffect: verb !== 'show',
    async run({ args, services, invocation }) {
      requirePrivate(invocation, `/token ${verb}`);
      const client = services.toolhost.forTool(args.tool);
      const token = await call(client);
      // The platform's own token: a secret everywhere, in every process, from now on.
      await services.accounts.secrets.register(token.token);
      return withWarnings(tokenCard(args.tool, token, headline), client);
    },
  });
}

/** `/token show <tool>`. */
export const tokenShowCommand = tokenValueCommand('show', 'The current deploy token:', (c) =>
  c.components.getDeployToken(),
);

/** `/token create <tool>`. */
export const tokenCreateCommand = tokenValueCommand('create', 'Created a deploy token:', (c) =>
  c.components.createDeployToken().catch((error: unknown) => {
    // components-api answers 409 when the tool already has one (its own advice names its HTTP route).
    if (error instanceof UpstreamError && error.status === 409) {
      throw new UpstreamError(
        'toolhost',
        409,
        `${c.tool} already has a deploy token, so none was created.`,
        `See it with /token show ${c.tool}, or replace it with /token refresh ${c.tool}.`,
      );
    }
    throw error;
  }),
);

/** `/token refresh <tool>`: replaces the token with a new one. */
export const tokenRefreshCommand = tokenValueCommand(
  'refresh',
  'The old token no longer works. The new one:',
  (c) => c.components.refreshDeployToken(),
);

/** `/token delete <tool>` (confirmed first). */
export const tokenDeleteCommand = toolCommand({
  name: 'token delete',
  permission: 'write',
  confirm: (args) =>
    `Delete the deploy token of ${args.tool}? Everything that deploys with it will stop working.`,
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const token = await mustExist(
      () => client.components.getDeployToken(),
      `${args.tool} has no deploy token, so there is nothing to delete.`,
    );
    await services.accounts.secrets.register(token.token);
    // The creation date tells a refreshed token apart; the token itself is never stored.
    return {
      label: `The deploy token of ${args.tool}`,
      args,
      ...(token.creation_date ? { version: token.creation_date } : {}),
    };
  },
  async run({ args, client }) {
    await client.components.deleteDeployToken();
    return { text: `Deleted the deploy token of ${args.tool}.`, status: 'success' };
  },
});
