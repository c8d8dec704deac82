import { z } from 'zod';
import type { Invocation } from '../src/core/command';
import { UsageError } from '../src/core/errors';
import type { DraftCard } from '../src/core/reply';
import { registerSecret } from '../src/secrets';
import type { DeployToken } from '../src/services/toolhost';
import { toolName } from './args';
import { withWarnings } from './format';
import { command } from './services';

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
  registerSecret(token.token);
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

/** `/token show <tool>` (private conversations only). */
export const tokenShowCommand = command({
  name: 'token show',
  summary: "Show a tool's deploy token (private conversation only)",
  args: toolArgs,
  positional: ['tool'],
  examples: ['/token show mytool'],
  permission: 'write',
  sideEffect: false,
  async run({ args, services, invocation }) {
    requirePrivate(invocation, '/token show');
    const client = services.toolhost.forTool(args.tool);
    return withWarnings(
      tokenCard(args.tool, await client.components.getDeployToken(), 'The current deploy token:'),
      client,
    );
  },
});

/** `/token create <tool>` (private conversations only). */
export const tokenCreateCommand = command({
  name: 'token create',
  summary: 'Create a deploy token for a tool (private conversation only)',
  args: toolArgs,
  positional: ['tool'],
  examples: ['/token create mytool'],
  permission: 'write',
  sideEffect: true,
  async run({ args, services, invocation }) {
    requirePrivate(invocation, '/token create');
    const client = services.toolhost.forTool(args.tool);
    return withWarnings(
      tokenCard(args.tool, await client.components.createDeployToken(), 'Created a deploy token:'),
      client,
    );
  },
});

/** `/token refresh <tool>` (private conversations only): replaces the token with a new one. */
export const tokenRefreshCommand = command({
  name: 'token refresh',
  summary: 'Replace the deploy token of a tool with a new one (private conversation only)',
  args: toolArgs,
  positional: ['tool'],
  examples: ['/token refresh mytool'],
  permission: 'write',
  sideEffect: true,
  async run({ args, services, invocation }) {
    requirePrivate(invocation, '/token refresh');
    const client = services.toolhost.forTool(args.tool);
    const token = await client.components.refreshDeployToken();
    return withWarnings(tokenCard(args.tool, token, 'The old token no longer works. The new one:'), client);
  },
});

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
  async run({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    await client.components.deleteDeployToken();
    return withWarnings({ text: `Deleted the deploy token of ${args.tool}.`, status: 'success' }, client);
  },
});
