/**
 * `/tool claim`, `/tool handoff`, `/tool release`: "I'm on it" for an announced failure of a tool's
 * job or deployments. The claim names its holder on every copy of the failure's card and silences
 * repeats of the failure until it recovers or the claim is released (see src/core/failure-claim.ts).
 */
import { z } from 'zod';
import { userKeyOf } from '../../src/core/change-record';
import { UsageError } from '../../src/core/errors';
import type { FailureScope } from '../../src/core/failure-claim';
import type { DraftCard } from '../../src/core/reply';
import { absoluteText, DEFAULT_TIME_ZONE } from '../../src/core/times';
import { type Translator, translator } from '../../src/i18n/translate';
import { jobName, toolName } from '../args';
import { command } from './context';

const jobArg = jobName.optional().describe('opt-job-tool-claim');

/** A failure's scope: the tool, and its failing job (without one: the tool's deployments). */
const scopeArgs = z.object({ tool: toolName, job: jobArg });

/**
 * The effect rules of claim, handoff and release: an interrupted attempt is shown by the scope's
 * `/tool claim` line and simply runs again (each command says why that is safe).
 */
const claimEffect = {
  check: (args: z.infer<typeof scopeArgs>) => typed('claim', scopeOfArgs(args)),
  recover: async () => 'run' as const,
};

/** `/tool claim mytool --job web` as typed for a scope. */
function typed(name: string, scope: FailureScope, extra = ''): string {
  return `/tool ${name} ${scope.tool}${extra}${scope.job ? ` --job ${scope.job}` : ''}`;
}

/** `job web` or `deployments`, as a sentence names the scope. */
function scopeWords(scope: FailureScope, say: Translator): string {
  return scope.job ? say.t('claim-scope-job', scope.job) : say.t('claim-scope-deployments');
}

function scopeOfArgs(args: { tool: string; job?: string | undefined }): FailureScope {
  return { tool: args.tool, ...(args.job ? { job: args.job } : {}) };
}

/** `/tool claim <tool> [--job <name>]`: the I'm on it button. */
export const toolClaimCommand = command({
  name: 'tool claim',
  args: scopeArgs,
  examples: ['/tool claim mytool --job web', '/tool claim mytool'],
  permission: 'write',
  // Claiming again is safe: the holder is told it is theirs, anyone else who holds it.
  effect: claimEffect,
  async run({ args, services, invocation, say = translator('en') }) {
    const scope = scopeOfArgs(args);
    const failures = services.accounts.failures;
    const me = userKeyOf(invocation.user);
    const result = await failures.claim(scope, { holder: me, name: invocation.user.name, since: Date.now() });
    if (result.kind === 'none') {
      return {
        text: say.t('claim-none', args.tool, scopeWords(scope, say)),
        status: 'info',
        audit: 'unchanged',
      };
    }
    if (result.kind === 'held') {
      const zone = (await services.timeZones.get(invocation.conversationId)) ?? DEFAULT_TIME_ZONE;
      const since = absoluteText({ at: result.claim.since }, zone, say.language);
      const mine = result.claim.holder === me;
      return {
        text: mine
          ? say.t('claim-yours-already', since)
          : say.t(
              'claim-held-already',
              result.claim.name,
              since,
              typed('handoff', scope, ` ${invocation.user.name}`),
            ),
        status: mine ? 'info' : 'warning',
        audit: 'unchanged',
      };
    }
    await failures.redraw(scope);
    const release = typed('release', scope);
    return {
      title: say.t('claim-title', invocation.user.name, args.tool, scopeWords(scope, say)),
      text: result.previous
        ? say.t('claim-taken-from', invocation.user.name, result.previous.name, release)
        : say.t('claim-taken', invocation.user.name, release),
      status: 'info',
    };
  },
});

/** `/tool handoff <tool> <to> [--job <name>]`: the holder offers the claim to another maintainer. */
export const toolHandoffCommand = command({
  name: 'tool handoff',
  args: z.object({
    tool: toolName,
    to: z.string().trim().min(1).max(80).optional().describe('opt-to-tool-handoff'),
    job: jobArg,
  }),
  positional: ['tool', 'to'],
  examples: ['/tool handoff mytool bob --job web', '/tool handoff mytool bob'],
  permission: 'write',
  // Offering again is safe: the offer is replaced by the same one.
  effect: claimEffect,
  async run({ args, services, invocation, openForm, say = translator('en'), sayPrivately = say }) {
    const scope = scopeOfArgs(args);
    if (!args.to) {
      const opened = await openForm({
        title: sayPrivately.t('claim-handoff-form-title', args.tool, scopeWords(scope, sayPrivately)),
        fields: [{ name: 'to', label: sayPrivately.t('claim-handoff-form-label') }],
        command: 'tool handoff',
        args: { tool: args.tool, ...(args.job ? { job: args.job } : {}) },
      });
      if (opened) return { text: say.t('claim-handoff-form-opened'), status: 'info', audit: 'pending' };
      const line = typed('handoff', scope, ' <name>');
      throw UsageError.inWords((say) => ({
        message: say.t('claim-handoff-who'),
        hint: say.t('claim-handoff-who-hint', line),
      }));
    }
    const result = await services.accounts.failures.handoff(scope, userKeyOf(invocation.user), args.to);
    if (result.kind === 'none') {
      return {
        text: say.t('claim-handoff-none', args.tool, scopeWords(scope, say)),
        status: 'info',
        audit: 'unchanged',
      };
    }
    if (result.kind === 'not-holder') {
      return {
        text: say.t('claim-handoff-not-holder', result.claim.name, typed('release', scope)),
        status: 'warning',
        audit: 'unchanged',
      };
    }
    await services.accounts.failures.redraw(scope);
    return {
      title: say.t('claim-handoff-title', invocation.user.name, args.tool, scopeWords(scope, say), args.to),
      text: say.t('claim-handoff-text', args.to, typed('claim', scope), invocation.user.name),
      status: 'info',
    };
  },
});

/** `/tool release <tool> [--job <name>]`: ends the claim; repeats are announced again. */
export const toolReleaseCommand = command({
  name: 'tool release',
  args: scopeArgs,
  examples: ['/tool release mytool --job web', '/tool release mytool'],
  permission: 'write',
  // Releasing again is safe: a claim already ended is answered as not claimed.
  effect: claimEffect,
  async run({ args, services, invocation, say = translator('en') }): Promise<DraftCard> {
    const scope = scopeOfArgs(args);
    const ended = await services.accounts.failures.release(scope);
    if (!ended) {
      return {
        text: say.t('claim-release-none', args.tool, scopeWords(scope, say)),
        status: 'info',
        audit: 'unchanged',
      };
    }
    await services.accounts.failures.redraw(scope);
    const own = ended.released.holder === userKeyOf(invocation.user);
    return {
      title: say.t('claim-released-title', args.tool, scopeWords(scope, say)),
      text: own
        ? say.t('claim-released-own', invocation.user.name)
        : say.t('claim-released-other', invocation.user.name, ended.released.name),
      status: 'info',
    };
  },
});
