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
    window: z
      .array(z.string())
      .min(1, 'say when the tool is frozen each week, e.g. fri 15:00 - mon 08:00')
      .describe('opt-window'),
    zone: z.string().max(64).optional().describe('opt-zone'),
  }),
  positional: ['tool', 'window'],
  examples: [
    '/tool freeze mytool fri 15:00 - mon 08:00',
    '/tool freeze mytool sat 00:00 - sun 23:59 --zone UTC',
  ],
  permission: 'write',
  effect: { check: (args) => `/tool freezes ${args.tool}` },
  async run({ args, services, invocation }) {
    const zone =
      args.zone?.trim() || (await services.timeZones.get(invocation.conversationId)) || DEFAULT_TIME_ZONE;
    const window = parseFreezeWindow(args.window.join(' '), zone);
    const guards = services.accounts.guards;
    if ((await guards.freezes(args.tool)).length >= MAX_FREEZES) {
      throw new UsageError(`${args.tool} already has ${MAX_FREEZES} freeze windows, the most it keeps.`, {
        hint: `Remove one first (/tool freezes ${args.tool} lists them). Nothing was added.`,
      });
    }
    const now = Date.now();
    const id = await guards.addFreeze(args.tool, { ...window, by: invocation.user.name, addedAt: now });
    const inside = insideWindow(window, now);
    const next = inside
      ? `It holds now, until ${absoluteText({ at: windowEnd(window, now) }, zone)}.`
      : `Next from ${absoluteText({ at: windowStart(window, now) }, zone)} to ${absoluteText({ at: windowEnd(window, windowStart(window, now)) }, zone)}.`;
    return {
      title: `Freeze window ${id} added to ${args.tool}`,
      text: `Every week ${windowText(window)} (${zone}), deploys and destructive commands of ${args.tool} are refused. ${next}`,
      footer: `Remove it with /tool unfreeze ${args.tool} ${id}.`,
      status: 'success',
    };
  },
});

/** `/tool freezes <tool>`: the lock and the freeze windows of a tool. */
export const toolFreezesCommand = command({
  name: 'tool freezes',
  args: z.object({ tool: toolName }),
  permission: 'read',
  async run({ args, services }) {
    const { fields, blocked, freezes } = await guardState(services.accounts.guards, args.tool);
    return {
      title: `Locks and freezes of ${args.tool}`,
      text: blocked
        ? `Deploys and destructive commands of ${args.tool} are refused now.`
        : `Deploys and destructive commands of ${args.tool} run now.`,
      fields,
      footer: freezes.length
        ? `Remove a window with /tool unfreeze ${args.tool} <id>.`
        : `No freeze windows. Add one with /tool freeze ${args.tool} fri 15:00 - mon 08:00.`,
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
      .regex(/^\d{1,9}$/, 'must be the number of a freeze window, as /tool freezes shows it')
      .describe('opt-id-tool-unfreeze'),
  }),
  positional: ['tool', 'id'],
  examples: ['/tool unfreeze mytool 1'],
  permission: 'write',
  effect: { check: (args) => `/tool freezes ${args.tool}` },
  async run({ args, services }) {
    const guards = services.accounts.guards;
    if (!(await guards.removeFreeze(args.tool, args.id))) {
      throw new UsageError(`${args.tool} has no freeze window ${args.id}.`, {
        hint: `/tool freezes ${args.tool} lists its windows. Nothing was changed.`,
      });
    }
    return { text: `Freeze window ${args.id} of ${args.tool} removed.`, status: 'success' };
  },
});
