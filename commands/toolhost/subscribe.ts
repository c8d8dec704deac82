import { z } from 'zod';
import { digestWords, weekdayName } from '../../src/core/digest-view';
import { UsageError } from '../../src/core/errors';
import type { CardField } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { Subscription, SubscriptionKind } from '../../src/store/subscriptions';
import { toolName } from '../args';
import { command } from './context';
import { applyDigest, digestOption, parseDigest } from './subscribe-digest';

/** Every kind a conversation can subscribe to (checked against the store's kinds). */
const kind = z.enum(['builds', 'deploys', 'jobs'] as const satisfies readonly SubscriptionKind[]);

const kindList = z.array(kind).default([]).describe('opt-kinds');

/** What a subscription follows, with its filters (the kinds are option values: English). */
function describe(subscription: Subscription, say: Translator): string {
  const filters = [
    subscription.failuresOnly && say.t('subscribe-filter-failures-only'),
    subscription.changesOnly && say.t('subscribe-filter-changes-only'),
    subscription.thread && say.t('subscribe-filter-thread'),
    subscription.format === 'compact' && say.t('subscribe-filter-compact'),
  ].filter(Boolean);
  const kinds = subscription.kinds.join(', ');
  const described = filters.length ? say.t('subscribe-with-filters', kinds, filters.join(', ')) : kinds;
  // The reason it broke is the platform's or the chat's own words (English).
  return subscription.broken ? say.t('subscribe-broken', described, subscription.broken) : described;
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
  async run({ args, services, invocation, say = translator(undefined) }) {
    if (args.tool === 'calendar') {
      throw UsageError.inWords((say) => ({
        message: say.t('subscribe-calendar'),
        hint: say.t('subscribe-calendar-hint'),
      }));
    }
    if (args.failuresOnly && args.changesOnly) {
      throw UsageError.inWords((say) => ({
        message: say.t('subscribe-filters-both'),
        hint: say.t('subscribe-filters-both-hint'),
      }));
    }
    const digest = args.digest === undefined ? undefined : parseDigest(args.digest);
    services.toolhost.forTool(args.tool);
    const target = { tool: args.tool, conversationId: invocation.conversationId, user: invocation.user };
    if (digest === 'off')
      return { text: await applyDigest(services, digest, target, say), status: 'success' };
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
    const digestText = digest ? `\n${await applyDigest(services, digest, target, say)}` : '';
    return {
      text: `${say.t('subscribe-done', args.tool, describe(subscription, say))}${digestText}`,
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
  async run({ args, services, invocation, say = translator(undefined) }) {
    const current = await services.subscriptions.get(invocation.conversationId, args.tool);
    if (!current)
      throw UsageError.inWords((say) => ({
        message: say.t('subscribe-not-subscribed', args.tool),
        hint: say.t('subscribe-see-subscriptions'),
      }));
    const remaining = args.kinds.length === 0 ? [] : current.kinds.filter((k) => !args.kinds.includes(k));
    if (remaining.length === 0) {
      await services.subscriptions.remove(invocation.conversationId, args.tool);
      await services.digests.remove(invocation.conversationId, args.tool);
      if ((await services.subscriptions.forTool(args.tool)).length === 0)
        await services.discovery.unschedule(args.tool);
      return { text: say.t('subscribe-removed', args.tool), status: 'success' };
    }
    const { broken: _broken, ...rest } = current;
    await services.subscriptions.put({ ...rest, kinds: remaining });
    return {
      text: say.t('subscribe-now-hears', args.tool, remaining.join(', ')),
      status: 'success',
    };
  },
});

/** `/subscriptions`: what this conversation is subscribed to. */
export const subscriptionsCommand = command({
  name: 'subscriptions',
  permission: 'read',
  async run({ services, invocation, say = translator(undefined) }) {
    const subscriptions = await services.subscriptions.forConversation(invocation.conversationId);
    const digest = await services.digests.get(invocation.conversationId);
    const toolDigests = await services.digests.ofTools(
      invocation.conversationId,
      subscriptions.map((s) => s.tool),
    );
    const imports = await services.accounts.followers.forConversation(invocation.conversationId);
    const fields: CardField[] = [
      ...subscriptions.map((s) => ({ label: s.tool, value: describe(s, say) })),
      ...(digest
        ? [
            {
              label: 'calendar',
              value:
                digest.every === 'weekly'
                  ? say.t(
                      'subscribe-calendar-weekly',
                      weekdayName(say, digest.weekday),
                      digest.at,
                      digest.timezone,
                    )
                  : say.t('subscribe-calendar-daily', digest.at, digest.timezone),
            },
          ]
        : []),
      ...toolDigests.map((d) => ({
        label: say.t('subscribe-tool-digest-label', d.tool ?? ''),
        value: say.t('subscribe-tool-digest', digestWords(say, d), d.tool ?? ''),
      })),
      ...imports.map((repo) => ({
        label: repo,
        value: say.t('subscribe-source-import', repo),
      })),
    ];
    if (fields.length === 0) {
      return { text: say.t('subscribe-none', '/source import follow <owner/repo>'), status: 'info' };
    }
    return {
      title: say.t('subscribe-list-title'),
      fields,
      status: subscriptions.some((s) => s.broken) ? 'warning' : 'info',
    };
  },
});
