/** The context of the toolhost commands: the part of the services they use. */
import type { z } from 'zod';
import type { CommandContext, CommandDeclaration, CommandDefinition } from '../../src/core/command';
import type { DraftCard } from '../../src/core/reply';
import type { ToolhostClient } from '../../src/services/toolhost';
import { withWarnings } from '../format';
import { type AppServices, commandsWith } from '../services';
import { toolArgs } from './signatures';

type Used =
  | 'toolhost'
  | 'watches'
  | 'tails'
  | 'bindings'
  | 'subscriptions'
  | 'discovery'
  | 'accounts'
  | 'digests'
  | 'locks'
  | 'timeZones'
  | 'adminLog';

/**
 * What the tool-platform commands use: the client factory, watches and tails, bindings,
 * subscriptions with discovery, linked accounts (deploy tokens), and the Server Admin Log settings
 * (`/tool status` shows them); `/subscriptions` also lists the calendar digest and the import
 * follows of the conversation.
 */
export type ToolhostServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link ToolhostServices} only. */
export const command = commandsWith<Used>();

/** What the `run` of a {@link toolCommand} receives: the command's context and the tool's client. */
export type ToolCommandContext<A> = CommandContext<A, ToolhostServices> & { client: ToolhostClient };

/** The arguments of a {@link toolCommand} that leaves out `args`: the tool. */
export type WholeToolArgs = typeof toolArgs;

/**
 * A {@link toolCommand}'s declaration: a command whose `run` answers with the tool's client at hand.
 * Without `args` it is about the whole tool and takes only the tool.
 */
export type ToolCommandDefinition<Schema extends z.ZodObject> = Omit<
  CommandDeclaration<Schema, ToolhostServices>,
  'run'
> & {
  run(ctx: ToolCommandContext<z.infer<Schema>>): Promise<DraftCard>;
};

/**
 * A command that acts on the tool of its `tool` argument: `run` receives that tool's client, and
 * the card it returns carries the platform's not-yet-shown warnings (deprecations, beta notices).
 */
export function toolCommand<Schema extends z.ZodObject<{ tool: z.ZodType<string> }> = WholeToolArgs>(
  declaration: ToolCommandDefinition<Schema>,
): CommandDefinition<Schema, ToolhostServices> {
  return command<Schema>({
    ...declaration,
    args: declaration.args ?? (toolArgs as z.ZodObject as Schema),
    async run(ctx) {
      const client = ctx.services.toolhost.forTool(ctx.args.tool);
      return withWarnings(await declaration.run({ ...ctx, client }), client);
    },
  });
}
