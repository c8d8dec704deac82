/** `/tool sal <tool> [on|off]`: whether a tool's changes made through Deckhand are written to its Server Admin Log. */
import { z } from 'zod';
import { translator } from '../../../src/i18n/translate';
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
  async run({ args, services, say = translator(undefined) }) {
    const sal = services.adminLog;
    const where = say.t('sal-where', `!log tools.${args.tool} …`, sal.channel);
    if (!args.state) {
      const own = await sal.setting(args.tool);
      const on = await salIsOn(sal, args.tool);
      const change = `/tool sal ${args.tool} ${on ? 'off' : 'on'}`;
      const text =
        own === undefined
          ? on
            ? say.t('sal-is-on-default', args.tool, change, where)
            : say.t('sal-is-off-default', args.tool, change)
          : on
            ? say.t('sal-is-on', args.tool, where)
            : say.t('sal-is-off', args.tool);
      return {
        text,
        status: 'info',
        audit: 'unchanged',
      };
    }
    const on = args.state === 'on';
    const before = await sal.set(args.tool, on);
    const same = (before ?? sal.defaultOn) === on && before !== undefined;
    return {
      title: on ? say.t('sal-title-on', args.tool) : say.t('sal-title-off', args.tool),
      text: on
        ? `${say.t('sal-now-on', args.tool, where)}${same ? ` ${say.t('sal-already-on')}` : ''}`
        : `${say.t('sal-now-off', args.tool)}${same ? ` ${say.t('sal-already-off')}` : ''}`,
      status: 'success',
      ...(same ? { audit: 'unchanged' as const } : {}),
    };
  },
});
