import { z } from 'zod';
import { describeDigest } from '../../src/core/digest-view';
import { UsageError } from '../../src/core/errors';
import type { CardField } from '../../src/core/reply';
import type { Subscription, SubscriptionKind } from '../../src/store/subscriptions';
import { toolName } from '../args';
import { command } from './context';
import { applyDigest, digestOption, parseDigest } from './subscribe-digest';

/** Every kind a conversation can subscribe to (checked against the store's kinds). */
const kind = z.enum(['builds', 'deploys', 'jobs'] as const satisfies readonly SubscriptionKind[]);

const kindList = z.array(kind).default([]).describe('opt-kinds');

function describe(subscription: Subscription): string {
  const filters = [
    subscription.failuresOnly && 'failures only',
    subscription.changesOnly && 'changes only',
    subscription.thread && 'one thread per resource',
    subscription.format === 'compact' && 'compact',
  ].filter(Boolean);
  const broken = subscription.broken ? ` — BROKEN: ${subscription.broken}` : '';
  return `${subscription.kinds.join(', ')}${filters.length ? ` (${filters.join(', ')})` : ''}${broken}`;
}

/** `/subscribe <tool> [builds] [deploys] [jobs] [--failures-only] [--changes-only]`. */
export const subscribeCommand = command({
  name: 'subscribe',
  args: z.object({
    tool: toolName,
    kinds: kindList,
    failuresOnly: z.boolean().default(false).describe('opt-failures-only'),
    changesOnly: z.boolean().default(false).describe('opt-changes-only'),
    thread: z.boolean().default(false).describe('opt-thread'),
    digest: digestOption,
    format: z.enum(['compact', 'full']).default('full').describe('opt-format'),
  }),
  positional: ['tool', 'kinds'],
  examples: [
    '/subscribe mytool',
    '/subscribe mytool --digest daily@09:00',
    '/subscribe mytool --digest "weekly@mon 09:00" --format compact',
    '/subscribe mytool deploys --failures-only',
    '/subscribe mytool builds deploys --changes-only',
    '/subscribe mytool deploys --thread',
  ],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    if (args.tool === 'calendar') {
      throw new UsageError('The calendar has a digest instead.', {
        hint: '/calendar digest --daily|--weekly [--at 09:00] posts the upcoming events here.',
      });
    }
    if (args.failuresOnly && args.changesOnly) {
      throw new UsageError('Choose either --failures-only or --changes-only.', {
        hint: '--changes-only already includes every new failure after a success.',
      });
    }
    const digest = args.digest === undefined ? undefined : parseDigest(args.digest);
    services.toolhost.forTool(args.tool);
    const target = { tool: args.tool, conversationId: invocation.conversationId, user: invocation.user };
    if (digest === 'off') return { text: await applyDigest(services, digest, target), status: 'success' };
    const kinds = args.kinds.length > 0 ? [...new Set(args.kinds)] : [...kind.options];
    // Only what happens from now on is news here. Kinds no working subscription follows may carry
    // what discovery remembered long ago (an earlier subscription, an earlier sandbox run): it is
    // forgotten, so the next look records what exists instead of announcing a day-old deployment.
    const followed = new Set(
      (await services.subscriptions.forTool(args.tool)).filter((s) => !s.broken).flatMap((s) => s.kinds),
    );
    await services.discovery.forget(
      args.tool,
      kinds.filter((k) => !followed.has(k)),
    );
    const subscription: Subscription = {
      conversationId: invocation.conversationId,
      platform: invocation.user.platform,
      tool: args.tool,
      kinds: kinds as SubscriptionKind[],
      failuresOnly: args.failuresOnly,
      // With a digest, only transitions are announced at once.
      changesOnly: args.changesOnly || (digest !== undefined && !args.failuresOnly),
      ...(args.thread ? { thread: true } : {}),
      ...(args.format === 'compact' ? { format: 'compact' as const } : {}),
      createdBy: `${invocation.user.platform}:${invocation.user.id}`,
    };
    await services.subscriptions.put(subscription);
    await services.discovery.schedule(args.tool);
    const digestText = digest ? `\n${await applyDigest(services, digest, target)}` : '';
    return {
      text: `This conversation now hears about ${args.tool}: ${describe(subscription)}.\nBuilds and deployments started anywhere (CI, the platform's CLI) are announced too.${digestText}`,
      status: 'success',
    };
  },
});

/** `/unsubscribe <tool> [kinds]`. */
export const unsubscribeCommand = command({
  name: 'unsubscribe',
  args: z.object({ tool: toolName, kinds: kindList }),
  positional: ['tool', 'kinds'],
  examples: ['/unsubscribe mytool', '/unsubscribe mytool builds'],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    const current = await services.subscriptions.get(invocation.conversationId, args.tool);
    if (!current)
      throw new UsageError(`This conversation is not subscribed to ${args.tool}.`, {
        hint: 'See /subscriptions.',
      });
    const remaining = args.kinds.length === 0 ? [] : current.kinds.filter((k) => !args.kinds.includes(k));
    if (remaining.length === 0) {
      await services.subscriptions.remove(invocation.conversationId, args.tool);
      await services.digests.remove(invocation.conversationId, args.tool);
      if ((await services.subscriptions.forTool(args.tool)).length === 0)
        await services.discovery.unschedule(args.tool);
      return { text: `This conversation no longer hears about ${args.tool}.`, status: 'success' };
    }
    const { broken: _broken, ...rest } = current;
    await services.subscriptions.put({ ...rest, kinds: remaining });
    return {
      text: `This conversation now hears about ${args.tool}: ${remaining.join(', ')}.`,
      status: 'success',
    };
  },
});

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** `/subscriptions`: what this conversation is subscribed to. */
export const subscriptionsCommand = command({
  name: 'subscriptions',
  permission: 'read',
  async run({ services, invocation }) {
    const subscriptions = await services.subscriptions.forConversation(invocation.conversationId);
    const digest = await services.digests.get(invocation.conversationId);
    const toolDigests = await services.digests.ofTools(
      invocation.conversationId,
      subscriptions.map((s) => s.tool),
    );
    const imports = await services.accounts.followers.forConversation(invocation.conversationId);
    const fields: CardField[] = [
      ...subscriptions.map((s) => ({ label: s.tool, value: describe(s) })),
      ...(digest
        ? [
            {
              label: 'calendar',
              value: `${digest.every} digest of upcoming events${digest.every === 'weekly' ? ` on ${WEEKDAYS[digest.weekday]}s` : ''} at ${digest.at} (${digest.timezone}) — /calendar digest --off stops it`,
            },
          ]
        : []),
      ...toolDigests.map((d) => ({
        label: `${d.tool} digest`,
        value: `${describeDigest(d)} — /subscribe ${d.tool} --digest off stops it`,
      })),
      ...imports.map((repo) => ({
        label: repo,
        value: `the end of its source import — /source import unfollow ${repo} stops it`,
      })),
    ];
    if (fields.length === 0) {
      return {
        text: 'This conversation has no subscriptions. Add one with /subscribe <tool>, /calendar digest --daily or /source import follow <owner/repo>.',
        status: 'info',
      };
    }
    return {
      title: 'Subscriptions here',
      fields,
      status: subscriptions.some((s) => s.broken) ? 'warning' : 'info',
    };
  },
});
