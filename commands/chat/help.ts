import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { commandHelp, registryHelp } from '../../src/core/help';
import { command } from './context';

/** `/help [command]`: the command list, a group's commands, or one command's arguments and examples. */
export const helpCommand = command({
  name: 'help',
  summary: 'Show the commands, or how to use one',
  args: z.object({ topic: z.array(z.string()).default([]).describe('a command or group, e.g. build start') }),
  positional: ['topic'],
  examples: ['/help', '/help deploy', '/help build start'],
  permission: 'read',
  sideEffect: false,
  async run({ args, services }) {
    const words = args.topic.map((w) => w.replace(/^\//, '').toLowerCase());
    if (words.length === 0) return registryHelp(services.registry);
    const exact = services.registry.get(words.join(' '));
    if (exact) return commandHelp(exact);
    const group = words[0] as string;
    if (words.length === 1 && services.registry.group(group).length > 0) {
      const members = services.registry.group(group);
      return members.length === 1 ? commandHelp(members[0] as never) : registryHelp(services.registry, group);
    }
    throw new UsageError(`There is no command /${words.join(' ')}.`, { hint: 'Type /help to see them all.' });
  },
});
