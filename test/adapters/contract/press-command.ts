/** A test-only command for the contract's button cases: records who pressed, and answers. */
import { z } from 'zod';
import { testCommand } from '../../support/test-commands';

/** `tag:user` of every run, in order (tags keep the cases and platforms apart). */
export const presses: string[] = [];

/** Runs of `tag` by each user. */
export function pressesOf(tag: string): string[] {
  return presses.filter((p) => p.startsWith(`${tag}:`)).map((p) => p.slice(tag.length + 1));
}

/** A command that asks its one argument with a form, then records it like a press (`tag:answer`). */
export const formCommand = testCommand({
  name: 'contract-form',
  summary: 'Asks for an answer with a form (contract tests only)',
  args: z.object({ tag: z.string(), answer: z.string().optional() }),
  examples: ['/contract-form tag'],
  run: async ({ args, openForm }) => {
    if (args.answer === undefined) {
      const opened = await openForm({
        title: 'Contract form',
        fields: [{ name: 'answer', label: 'Answer' }],
        command: 'contract-form',
        args: { tag: args.tag },
      });
      return opened ? undefined : { text: 'No form can be shown here.', status: 'warning' };
    }
    presses.push(`${args.tag}:${args.answer}`);
    return { text: `Pressed (${args.tag}).` };
  },
});

/** The command a contract button runs. */
export const pressCommand = testCommand({
  name: 'contract-press',
  summary: 'Records a button press (contract tests only)',
  args: z.object({ tag: z.string() }),
  examples: ['/contract-press tag'],
  run: async ({ args, invocation }) => {
    presses.push(`${args.tag}:${invocation.user.id}`);
    return { text: `Pressed (${args.tag}).` };
  },
});
