/** Commands that exist only in tests: one that takes its time, one that fails with our own bug. */
import type { z } from 'zod';
import {
  type CommandDeclaration,
  type CommandDefinition,
  defineCommand,
  type NoArgs,
} from '../../src/core/command';

/** A {@link testCommand}'s declaration: a command's, where the permission may be left out too. */
export type TestCommandDeclaration<Schema extends z.ZodObject, S> = Omit<
  CommandDeclaration<Schema, S>,
  'permission'
> &
  Partial<Pick<CommandDeclaration<Schema, S>, 'permission'>> & {
    /** What it does, in English (a product command's comes from the catalog). */
    summary?: string;
  };

/**
 * A command that exists only in a test: open to everyone (`read`) unless `declaration` says
 * otherwise; {@link defineCommand} fills in the rest (its bare example, no side effect for `read`).
 */
export function testCommand<Schema extends z.ZodObject = NoArgs, S = unknown>(
  declaration: TestCommandDeclaration<Schema, S>,
): CommandDefinition<Schema, S> {
  const { summary, ...declared } = declaration;
  const command = defineCommand<Schema, S>({ permission: 'read', ...declared });
  return summary === undefined ? command : { ...command, summary };
}

/** `/slow`: answers after two seconds. */
export const slowCommand = testCommand({
  name: 'slow',
  summary: 'Takes two seconds',
  run: async () => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { text: 'Slow work done.', status: 'success' as const };
  },
});

/** `/explode`: throws a `TypeError` with `message`, as a bug of Deckhand's own would. */
export function explodingCommand(message: string) {
  return testCommand({
    name: 'explode',
    summary: 'fails',
    async run() {
      throw new TypeError(message);
    },
  });
}
