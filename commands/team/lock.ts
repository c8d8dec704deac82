/** `/tool lock`, `/tool unlock`: a lock refuses deploys and destructive commands of a tool until it ends. */
import { z } from 'zod';
import { ChangeLockedError, type ToolLock } from '../../src/core/change-guard';
import { userKeyOf } from '../../src/core/change-record';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { absoluteText, DEFAULT_TIME_ZONE } from '../../src/core/times';
import { toolName } from '../args';
import { lockFields } from '../guard-fields';
import { command } from './context';
import { lockEnd } from './lock-times';

const MAX_REASON = 200;

/** `/tool lock <tool> [reason] [--for 2h | --until 18:00] [--take]`. */
export const toolLockCommand = command({
  name: 'tool lock',
  args: z.object({
    tool: toolName,
    reason: z.array(z.string()).default([]).describe('opt-reason'),
    for: z.string().max(20).optional().describe('opt-for'),
    until: z.string().max(30).optional().describe('opt-until-tool-lock'),
    take: z.boolean().default(false).describe('opt-take'),
  }),
  positional: ['tool', 'reason'],
  examples: [
    '/tool lock mytool release in progress --for 2h',
    '/tool lock mytool --until 18:00',
    '/tool lock mytool hotfix --take',
  ],
  permission: 'write',
  // Taking the lock again is safe: its holder renews it, and anyone else is told who holds it.
  effect: { check: (args) => `/tool freezes ${args.tool}`, recover: async () => 'run' },
  async run({ args, services, invocation }) {
    const now = Date.now();
    const reason = args.reason.join(' ').trim();
    if (reason.length > MAX_REASON) {
      throw new UsageError(`The reason is ${reason.length} characters long; at most ${MAX_REASON} fit.`, {
        hint: 'Say it shorter. Nothing was locked.',
      });
    }
    const zone = (await services.timeZones.get(invocation.conversationId)) ?? DEFAULT_TIME_ZONE;
    const lock: ToolLock = {
      tool: args.tool,
      holder: userKeyOf(invocation.user),
      name: invocation.user.name,
      conversationId: invocation.conversationId,
      ...(reason ? { reason } : {}),
      since: now,
      until: lockEnd({ for: args.for, until: args.until }, zone, now),
    };
    const result = await services.accounts.guards.lock(lock, { take: args.take });
    if (result.kind === 'held') {
      const held = result.lock;
      throw new ChangeLockedError(
        `${held.name} already holds the lock on ${args.tool} (since ${absoluteText({ at: held.since }, zone)}${held.reason ? `, "${held.reason}"` : ''}, until ${absoluteText({ at: held.until }, zone)}); yours was not taken.`,
        `To take it over, and tell everyone here: /tool lock ${args.tool} --take. Or wait: it ends by itself.`,
      );
    }
    const card: DraftCard = {
      title: `${args.tool} is locked`,
      text: `Deploys and destructive commands of ${args.tool} are refused until it is unlocked (/tool unlock ${args.tool}) or the lock ends.`,
      fields: lockFields(result.lock),
      status: 'warning',
    };
    if (!result.previous) return card;
    return {
      ...card,
      title: `${invocation.user.name} took the lock on ${args.tool} from ${result.previous.name}`,
      text: `${result.previous.name} held it since ${absoluteText({ at: result.previous.since }, zone)}${result.previous.reason ? ` ("${result.previous.reason}")` : ''}. ${card.text}`,
    };
  },
});

/** `/tool unlock <tool>`. */
export const toolUnlockCommand = command({
  name: 'tool unlock',
  args: z.object({ tool: toolName }),
  permission: 'write',
  // Unlocking again is safe: a lock already removed is answered as not locked.
  effect: { check: (args) => `/tool freezes ${args.tool}`, recover: async () => 'run' },
  async run({ args, services, invocation }) {
    const removed = await services.accounts.guards.unlock(args.tool);
    if (!removed) {
      return { text: `${args.tool} is not locked; nothing was changed.`, status: 'info', audit: 'unchanged' };
    }
    const whose =
      removed.holder === userKeyOf(invocation.user) ? 'their own lock' : `the lock ${removed.name} held`;
    return {
      title: `${args.tool} is unlocked`,
      text: `${invocation.user.name} removed ${whose}${removed.reason ? ` ("${removed.reason}")` : ''}. Deploys and destructive commands of ${args.tool} run again (unless a freeze window holds: /tool freezes ${args.tool}).`,
      status: 'success',
    };
  },
});
