/** Commands that exist only in tests: one that takes its time, one that fails with our own bug. */
import { z } from 'zod';
import { type CommandDefinition, defineCommand } from '../../src/core/command';

type Defaulted = 'examples' | 'permission' | 'sideEffect';

/** A {@link testCommand}'s definition: a command's, where the examples, permission and side effect may be left out. */
export type TestCommandDefinition<Schema extends z.ZodObject, S> = Omit<
  CommandDefinition<Schema, S>,
  Defaulted
> &
  Partial<Pick<CommandDefinition<Schema, S>, Defaulted>>;

/**
 * A command that exists only in a test: `/<name>` its one example, open to everyone (`read`) and
 * without side effect, unless `definition` says otherwise.
 */
export function testCommand<Schema extends z.ZodObject, S = unknown>(
  definition: TestCommandDefinition<Schema, S>,
): CommandDefinition<Schema, S> {
  return defineCommand<Schema, S>({
    examples: [`/${definition.name}`],
    permission: 'read',
    sideEffect: false,
    ...definition,
  });
}

/** `/slow`: answers after two seconds. */
export const slowCommand = testCommand({
  name: 'slow',
  summary: 'Takes two seconds',
  args: z.object({}),
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
    args: z.object({}),
    async run() {
      throw new TypeError(message);
    },
  });
}
