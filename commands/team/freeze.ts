/** `/tool freeze`, `/tool freezes`, `/tool unfreeze`: weekly windows in which a tool's changes are refused. */
import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import {
  insideWindow,
  parseFreezeWindow,
  windowEnd,
  windowStart,
  windowText,
} from '../../src/core/freeze-window';
import { absoluteText, DEFAULT_TIME_ZONE } from '../../src/core/times';
import { t, translator } from '../../src/i18n/translate';
import { toolName } from '../args';
import { guardState } from '../guard-fields';
import { command } from './context';

/** The most freeze windows one tool keeps. */
const MAX_FREEZES = 20;

/** `/tool freeze <tool> <day HH:MM - day HH:MM> [--zone Europe/Berlin]`. */
export const toolFreezeCommand = command({
  name: 'tool freeze',
  args: z.object({
    tool: toolName,
    window: z.array(z.string()).min(1, t('en', 'freeze-say-when')).describe('opt-window'),
    zone: z.string().max(64).optional().describe('opt-zone'),
  }),
  positional: ['tool', 'window'],
  examples: [
    '/tool freeze mytool fri 15:00 - mon 08:00',
    '/tool freeze mytool sat 00:00 - sun 23:59 --zone UTC',
  ],
  permission: 'write',
  effect: { check: (args) => `/tool freezes ${args.tool}` },
  async run({ args, services, invocation, say = translator('en') }) {
    const zone =
      args.zone?.trim() || (await services.timeZones.get(invocation.conversationId)) || DEFAULT_TIME_ZONE;
    const window = parseFreezeWindow(args.window.join(' '), zone);
    const guards = services.accounts.guards;
    if ((await guards.freezes(args.tool)).length >= MAX_FREEZES) {
      const tool = args.tool;
      throw UsageError.inWords((say) => ({
        message: say.t('freeze-too-many', tool, MAX_FREEZES),
        hint: say.t('freeze-too-many-hint', tool),
      }));
    }
    const now = Date.now();
    const id = await guards.addFreeze(args.tool, { ...window, by: invocation.user.name, addedAt: now });
    const inside = insideWindow(window, now);
    const when = (at: number) => absoluteText({ at }, zone, say.language);
    const next = inside
      ? say.t('freeze-holds-now', when(windowEnd(window, now)))
      : say.t(
          'freeze-next',
          when(windowStart(window, now)),
          when(windowEnd(window, windowStart(window, now))),
        );
    return {
      title: say.t('freeze-added-title', String(id), args.tool),
      text: say.t('freeze-added-text', windowText(window), zone, args.tool, next),
      footer: say.t('freeze-added-footer', args.tool, String(id)),
      status: 'success',
    };
  },
});

/** `/tool freezes <tool>`: the lock and the freeze windows of a tool. */
export const toolFreezesCommand = command({
  name: 'tool freezes',
  args: z.object({ tool: toolName }),
  permission: 'read',
  async run({ args, services, say = translator('en') }) {
    const { fields, blocked, freezes } = await guardState(services.accounts.guards, args.tool);
    return {
      title: say.t('freeze-list-title', args.tool),
      text: blocked ? say.t('freeze-list-refused', args.tool) : say.t('freeze-list-running', args.tool),
      fields,
      footer: freezes.length ? say.t('freeze-list-remove', args.tool) : say.t('freeze-list-none', args.tool),
      status: blocked ? 'warning' : 'info',
    };
  },
});

/** `/tool unfreeze <tool> <id>`. */
export const toolUnfreezeCommand = command({
  name: 'tool unfreeze',
  args: z.object({
    tool: toolName,
    id: z
      .string()
      .regex(/^\d{1,9}$/, t('en', 'freeze-id-invalid'))
      .meta({ invalid: 'freeze-id-invalid' })
      .describe('opt-id-tool-unfreeze'),
  }),
  positional: ['tool', 'id'],
  examples: ['/tool unfreeze mytool 1'],
  permission: 'write',
  effect: { check: (args) => `/tool freezes ${args.tool}` },
  async run({ args, services, say = translator('en') }) {
    const guards = services.accounts.guards;
    if (!(await guards.removeFreeze(args.tool, args.id))) {
      const { tool, id } = args;
      throw UsageError.inWords((say) => ({
        message: say.t('freeze-no-such-window', tool, id),
        hint: say.t('freeze-no-such-window-hint', tool),
      }));
    }
    return { text: say.t('freeze-removed', args.id, args.tool), status: 'success' };
  },
});
