/** `/tool lock`, `/tool unlock`: a lock refuses deploys and destructive commands of a tool until it ends. */
import { z } from 'zod';
import { ChangeLockedError, type ToolLock } from '../../src/core/change-guard';
import { userKeyOf } from '../../src/core/change-record';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import { absoluteText, DEFAULT_TIME_ZONE } from '../../src/core/times';
import { type Translator, translator } from '../../src/i18n/translate';
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
  async run({ args, services, invocation, say = translator('en') }) {
    const now = Date.now();
    const reason = args.reason.join(' ').trim();
    if (reason.length > MAX_REASON) {
      const length = reason.length;
      throw UsageError.inWords((say) => ({
        message: say.t('lock-reason-too-long', length, MAX_REASON),
        hint: say.t('lock-reason-too-long-hint'),
      }));
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
      const tool = args.tool;
      const words = (say: Translator) => {
        const since = absoluteText({ at: held.since }, zone, say.language);
        const until = absoluteText({ at: held.until }, zone, say.language);
        return {
          message: held.reason
            ? say.t('lock-held-reason', held.name, tool, since, held.reason, until)
            : say.t('lock-held', held.name, tool, since, until),
          hint: say.t('lock-held-hint', tool),
        };
      };
      const english = words(translator('en'));
      const error = new ChangeLockedError(english.message, english.hint);
      error.words = words;
      throw error;
    }
    const card: DraftCard = {
      title: say.t('lock-locked-title', args.tool),
      text: say.t('lock-locked-text', args.tool),
      fields: lockFields(result.lock),
      status: 'warning',
    };
    if (!result.previous) return card;
    const previous = result.previous;
    const since = absoluteText({ at: previous.since }, zone, say.language);
    return {
      ...card,
      title: say.t('lock-taken-title', invocation.user.name, args.tool, previous.name),
      text: previous.reason
        ? say.t('lock-taken-text-reason', previous.name, since, previous.reason, card.text ?? '')
        : say.t('lock-taken-text', previous.name, since, card.text ?? ''),
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
  async run({ args, services, invocation, say = translator('en') }) {
    const removed = await services.accounts.guards.unlock(args.tool);
    if (!removed) {
      return { text: say.t('lock-not-locked', args.tool), status: 'info', audit: 'unchanged' };
    }
    const whose =
      removed.holder === userKeyOf(invocation.user)
        ? say.t('lock-whose-own')
        : say.t('lock-whose-other', removed.name);
    return {
      title: say.t('lock-unlocked-title', args.tool),
      text: removed.reason
        ? say.t('lock-unlocked-text-reason', invocation.user.name, whose, removed.reason, args.tool)
        : say.t('lock-unlocked-text', invocation.user.name, whose, args.tool),
      status: 'success',
    };
  },
});
