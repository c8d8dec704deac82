/** `/tool sal <tool> [on|off]`: whether a tool's changes made through Deckhand are written to its Server Admin Log. */
import { z } from 'zod';
import { toolName } from '../../args';
import { commandsWith } from '../../services';
import { salIsOn } from './service';

const command = commandsWith<'adminLog'>();

/** `/tool sal <tool> [on|off]`. */
export const toolSalCommand = command({
  name: 'tool sal',
  args: z.object({
    tool: toolName,
    state: z.enum(['on', 'off']).optional().describe('opt-state'),
  }),
  positional: ['tool', 'state'],
  examples: ['/tool sal mytool on', '/tool sal mytool off', '/tool sal mytool'],
  permission: 'write',
  // Setting it again is safe: the same setting is answered as unchanged.
  effect: { check: (args) => `/tool sal ${args.tool}`, recover: async () => 'run' },
  async run({ args, services }) {
    const sal = services.adminLog;
    const where = `as \`!log tools.${args.tool} …\` in ${sal.channel}`;
    if (!args.state) {
      const own = await sal.setting(args.tool);
      const on = await salIsOn(sal, args.tool);
      const why =
        own === undefined ? ` (the default; /tool sal ${args.tool} ${on ? 'off' : 'on'} changes it)` : '';
      return {
        text: on
          ? `The SAL of ${args.tool} is on${why}: each change made through Deckhand is logged ${where}.`
          : `The SAL of ${args.tool} is off${why}: changes made through Deckhand are not logged.`,
        status: 'info',
        audit: 'unchanged',
      };
    }
    const on = args.state === 'on';
    const before = await sal.set(args.tool, on);
    const same = (before ?? sal.defaultOn) === on && before !== undefined;
    return {
      title: `SAL of ${args.tool} ${on ? 'on' : 'off'}`,
      text: on
        ? `Each change made through Deckhand to ${args.tool} is now logged ${where}, with a link to what was done.${same ? ' (It already was.)' : ''}`
        : `Changes made through Deckhand to ${args.tool} are no longer written to its SAL.${same ? ' (They already were not.)' : ''}`,
      status: 'success',
      ...(same ? { audit: 'unchanged' as const } : {}),
    };
  },
});
