import { z } from 'zod';
import { helpFor, welcomeHelp } from '../../src/core/help-sections';
import { command } from './context';
import { HELP_GUIDE } from './help-guide';

/**
 * `/help [topic]`: the overview by section, a section (`/help media`), a command group or the start
 * of a command's name (`/help media folder`), or one command's arguments and examples. A group name
 * typed alone (`/media folder`) lands here too.
 */
export const helpCommand = command({
  name: 'help',
  args: z.object({
    topic: z.array(z.string()).default([]).describe('opt-topic'),
    welcome: z.boolean().default(false).describe('opt-welcome').meta({ hidden: true }),
  }),
  positional: ['topic'],
  examples: ['/help', '/help deploy', '/help media folder'],
  permission: 'read',
  async run({ args, services, say, sayPrivately }) {
    if (args.welcome) return welcomeHelp(HELP_GUIDE, say);
    return helpFor(services.registry, HELP_GUIDE, args.topic, sayPrivately);
  },
});
