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
function scopeWords(scope: FailureScope): string {
  return scope.job ? `job ${scope.job}` : 'deployments';
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
  async run({ args, services, invocation }) {
    const scope = scopeOfArgs(args);
    const failures = services.accounts.failures;
    const me = userKeyOf(invocation.user);
    const result = await failures.claim(scope, { holder: me, name: invocation.user.name, since: Date.now() });
    if (result.kind === 'none') {
      return {
        text: `No failure of ${args.tool} ${scopeWords(scope)} is announced now: there is nothing to claim.`,
        status: 'info',
        audit: 'unchanged',
      };
    }
    if (result.kind === 'held') {
      const zone = (await services.timeZones.get(invocation.conversationId)) ?? DEFAULT_TIME_ZONE;
      const since = absoluteText({ at: result.claim.since }, zone);
      const mine = result.claim.holder === me;
      return {
        text: mine
          ? `You are on it already (since ${since}); nothing was changed.`
          : `${result.claim.name} is on it already (since ${since}); nothing was changed. They can hand it off to you: ${typed('handoff', scope, ` ${invocation.user.name}`)}.`,
        status: mine ? 'info' : 'warning',
        audit: 'unchanged',
      };
    }
    await failures.redraw(scope);
    const from = result.previous ? ` (handed off by ${result.previous.name})` : '';
    return {
      title: `${invocation.user.name} is on it: ${args.tool} ${scopeWords(scope)}`,
      text: `${invocation.user.name} took the failure${from}. Its repeats are not announced until it recovers or the claim is released (${typed('release', scope)}).`,
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
  async run({ args, services, invocation, openForm }) {
    const scope = scopeOfArgs(args);
    if (!args.to) {
      const opened = await openForm({
        title: `Hand off ${args.tool} ${scopeWords(scope)}`,
        fields: [{ name: 'to', label: 'Hand off to (a maintainer’s name)' }],
        command: 'tool handoff',
        args: { tool: args.tool, ...(args.job ? { job: args.job } : {}) },
      });
      if (opened) return { text: 'Say who takes it over in the form.', status: 'info', audit: 'pending' };
      throw new UsageError('Say who takes the failure over.', {
        hint: `${typed('handoff', scope, ' <name>')}. Nothing was changed.`,
      });
    }
    const result = await services.accounts.failures.handoff(scope, userKeyOf(invocation.user), args.to);
    if (result.kind === 'none') {
      return {
        text: `Nobody is on a failure of ${args.tool} ${scopeWords(scope)}: there is nothing to hand off.`,
        status: 'info',
        audit: 'unchanged',
      };
    }
    if (result.kind === 'not-holder') {
      return {
        text: `${result.claim.name} is on it, so only they can hand it off; nothing was changed. To end their claim: ${typed('release', scope)}.`,
        status: 'warning',
        audit: 'unchanged',
      };
    }
    await services.accounts.failures.redraw(scope);
    return {
      title: `${invocation.user.name} hands ${args.tool} ${scopeWords(scope)} off to ${args.to}`,
      text: `${args.to}: press I'm on it on the failure's card (or ${typed('claim', scope)}) to take it. Until someone does, ${invocation.user.name} stays on it and its repeats stay quiet.`,
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
  async run({ args, services, invocation }): Promise<DraftCard> {
    const scope = scopeOfArgs(args);
    const ended = await services.accounts.failures.release(scope);
    if (!ended) {
      return {
        text: `Nobody is on a failure of ${args.tool} ${scopeWords(scope)}; nothing was changed.`,
        status: 'info',
        audit: 'unchanged',
      };
    }
    await services.accounts.failures.redraw(scope);
    const whose =
      ended.released.holder === userKeyOf(invocation.user) ? 'their claim' : `${ended.released.name}'s claim`;
    return {
      title: `${args.tool} ${scopeWords(scope)}: nobody is on it now`,
      text: `${invocation.user.name} released ${whose}. Repeats of the failure are announced again.`,
      status: 'info',
    };
  },
});
