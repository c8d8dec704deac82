/** A test-only command for the contract's button cases: records who pressed, and answers. */
import { z } from 'zod';
import { defineCommand } from '../../../src/core/command';

/** `tag:user` of every run, in order (tags keep the cases and platforms apart). */
export const presses: string[] = [];

/** Runs of `tag` by each user. */
export function pressesOf(tag: string): string[] {
  return presses.filter((p) => p.startsWith(`${tag}:`)).map((p) => p.slice(tag.length + 1));
}

/** The command a contract button runs. */
export const pressCommand = defineCommand({
  name: 'contract-press',
  summary: 'Records a button press (contract tests only)',
  args: z.object({ tag: z.string() }),
  examples: ['/contract-press tag'],
  permission: 'read',
  sideEffect: false,
  run: async ({ args, invocation }) => {
    presses.push(`${args.tag}:${invocation.user.id}`);
    return { text: `Pressed (${args.tag}).` };
  },
});
