import { z } from 'zod';
import type { Invocation } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { mustExist } from '../../src/core/target';
import type { DeployToken, ToolhostClient } from '../../src/services/toolhost';
import { toolName } from '../args';
import { withWarnings } from '../format';
import { command } from './context';

const toolArgs = z.object({ tool: toolName });

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

function tokenCard(tool: string, token: DeployToken, headline: string): DraftCard {
  return {
    title: `Deploy token of ${tool}`,
    text: `${headline}\nKeep it secret: anyone with it can deploy ${tool}. It is valid for 365 days.`,
    fields: [
      { label: 'Token', value: token.token },
      ...(token.creation_date ? [{ label: 'Created', value: token.creation_date }] : []),
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
  summary: string,
  headline: string,
  call: (client: ToolhostClient) => Promise<DeployToken>,
) {
  return command({
    name: `token ${verb}`,
    summary: `${summary} (private conversation only)`,
    args: toolArgs,
    positional: ['tool'],
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
export const tokenShowCommand = tokenValueCommand(
  'show',
  "Show a tool's deploy token",
  'The current deploy token:',
  (c) => c.components.getDeployToken(),
);

/** `/token create <tool>`. */
export const tokenCreateCommand = tokenValueCommand(
  'create',
  'Create a deploy token for a tool',
  'Created a deploy token:',
  (c) => c.components.createDeployToken(),
);

/** `/token refresh <tool>`: replaces the token with a new one. */
export const tokenRefreshCommand = tokenValueCommand(
  'refresh',
  'Replace the deploy token of a tool with a new one',
  'The old token no longer works. The new one:',
  (c) => c.components.refreshDeployToken(),
);

/** `/token delete <tool>` (confirmed first). */
export const tokenDeleteCommand = command({
  name: 'token delete',
  summary: 'Delete the deploy token of a tool',
  args: toolArgs,
  positional: ['tool'],
  examples: ['/token delete mytool'],
  permission: 'write',
  sideEffect: true,
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
  async run({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    await client.components.deleteDeployToken();
    return withWarnings({ text: `Deleted the deploy token of ${args.tool}.`, status: 'success' }, client);
  },
});
