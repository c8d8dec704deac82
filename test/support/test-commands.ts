/** Commands that exist only in tests: one that takes its time, one that fails with our own bug. */
import { z } from 'zod';
import { defineCommand } from '../../src/core/command';

/** `/slow`: answers after two seconds. */
export const slowCommand = defineCommand({
  name: 'slow',
  summary: 'Takes two seconds',
  args: z.object({}),
  examples: ['/slow'],
  permission: 'read',
  sideEffect: false,
  run: async () => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { text: 'Slow work done.', status: 'success' as const };
  },
});

/** `/explode`: throws a `TypeError` with `message`, as a bug of Deckhand's own would. */
export function explodingCommand(message: string) {
  return defineCommand({
    name: 'explode',
    summary: 'fails',
    args: z.object({}),
    examples: ['/explode'],
    permission: 'read',
    sideEffect: false,
    async run() {
      throw new TypeError(message);
    },
  });
}
