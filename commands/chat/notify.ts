/**
 * `/notify`: your own notifications — a direct message when a deployment, build, one-off job or
 * upload you started ends, quiet hours in your own zone, and the platform they go to. Kept with your
 * linked identity (`/link source`), so they follow you across platforms.
 */
import { z } from 'zod';
import type { ChatUser } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import {
  describeNotifySettings,
  type NotifySettings,
  type PersonalNotifications,
  parseQuietHours,
} from '../../src/core/personal-notify';
import { DEFAULT_TIME_ZONE } from '../../src/core/times';
import { commandsWith } from '../services';

const command = commandsWith<'notifications' | 'timeZones'>();

function nameOf(store: PersonalNotifications, platform: string): string {
  return store.platforms.find((p) => p.name === platform)?.displayName ?? platform;
}

/** The settings as a card: what applies, and a line on whether they follow the person. */
async function settingsCard(store: PersonalNotifications, user: ChatUser, settings: NotifySettings) {
  const linked = await store.linked(user);
  return {
    title: 'Your notifications',
    fields: describeNotifySettings(settings, (platform) => nameOf(store, platform)),
    footer: linked
      ? 'Kept with your linked account: the same on every platform you linked.'
      : 'Kept for this chat account only: link your source-host account (/link source) on each platform to share them.',
  };
}

/** `/notify`: shows your notification settings. */
export const notifyShowCommand = command({
  name: 'notify',
  summary: 'Show your notification settings: direct messages about your work, quiet hours',
  args: z.object({}),
  examples: ['/notify'],
  permission: 'read',
  sideEffect: false,
  async run({ services, invocation }) {
    const store = services.notifications;
    // Seen here, linked: their direct messages may be sent to this account (`--via`).
    await store.remember(invocation.user);
    const settings = await store.settingsOf(invocation.user);
    return {
      ...(await settingsCard(store, invocation.user, settings)),
      text: 'Change them with /notify me on|off [--via <platform>] and /notify quiet 22:00-07:00 | off.',
      status: 'info',
      visibility: 'private',
    };
  },
});

/** `/notify me on|off [--via <platform>]`. */
export const notifyMeCommand = command({
  name: 'notify me',
  summary: 'Turn direct messages about work you started on or off, and choose the platform they go to',
  args: z.object({
    state: z.enum(['on', 'off']).describe('on (the default) or off'),
    via: z
      .string()
      .max(20)
      .optional()
      .describe('the platform direct messages go to (default: where you started the work)'),
  }),
  positional: ['state'],
  examples: ['/notify me on', '/notify me off', '/notify me on --via here'],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    const store = services.notifications;
    const via = args.via?.trim().toLowerCase();
    const platform = via === undefined ? undefined : store.platforms.find((p) => p.name === via);
    if (via !== undefined && via !== 'here' && !platform) {
      throw new UsageError(`Deckhand cannot send direct messages on ${via.slice(0, 20)}.`, {
        hint: `Choose one of: ${store.platforms.map((p) => p.name).join(', ')} (or --via here). Nothing was changed.`,
      });
    }
    const settings = await store.update(invocation.user, (current) => {
      const next: NotifySettings = { ...current, personal: args.state === 'on' };
      if (via === 'here') delete next.via;
      else if (platform) next.via = platform.name;
      return next;
    });
    const lines = [
      args.state === 'on'
        ? 'You will get a direct message when a deployment, build, one-off job or upload you started ends.'
        : 'You will get no direct messages about work you started.',
    ];
    if (platform && !settings.accounts[platform.name]) {
      lines.push(
        `Deckhand does not know your ${platform.displayName} account yet: run /notify there once (linked with /link source). Until then they go where you started the work.`,
      );
    }
    if (platform?.note) lines.push(`On ${platform.displayName}: ${platform.note}.`);
    return {
      ...(await settingsCard(store, invocation.user, settings)),
      text: lines.join('\n'),
      status: 'success',
      visibility: 'private',
    };
  },
});

/** `/notify quiet 22:00-07:00 [--zone Europe/Berlin] [--break-through failures]`, `/notify quiet off`. */
export const notifyQuietCommand = command({
  name: 'notify quiet',
  summary: 'Set quiet hours (no direct messages then) in your own time zone, or turn them off',
  args: z.object({
    range: z.string().max(40).describe('a range like 22:00-07:00 (over midnight is fine), or off'),
    zone: z
      .string()
      .max(64)
      .optional()
      .describe('your time zone (default: the one of this conversation, see /timezone)'),
    breakThrough: z
      .enum(['failures', 'none'])
      .optional()
      .describe('failures: a failure of your work still reaches you in quiet hours; none: nothing does'),
  }),
  positional: ['range'],
  examples: [
    '/notify quiet 22:00-07:00',
    '/notify quiet 22:00-07:00 --zone Europe/Berlin --break-through failures',
    '/notify quiet off',
  ],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    const store = services.notifications;
    const range = args.range.trim();
    if (range.toLowerCase() === 'off') {
      const settings = await store.update(invocation.user, (current) => {
        const next = { ...current, breakThrough: false };
        delete next.quiet;
        return next;
      });
      return {
        ...(await settingsCard(store, invocation.user, settings)),
        text: 'Quiet hours are off: direct messages reach you at any time.',
        status: 'success',
        visibility: 'private',
      };
    }
    const zone =
      args.zone?.trim() ?? (await services.timeZones.get(invocation.conversationId)) ?? DEFAULT_TIME_ZONE;
    const quiet = parseQuietHours(range, zone);
    if (typeof quiet === 'string') {
      throw new UsageError(quiet, {
        hint: 'For example /notify quiet 22:00-07:00 --zone Europe/Berlin, or /notify quiet off. Nothing was changed.',
      });
    }
    const settings = await store.update(invocation.user, (current) => ({
      ...current,
      quiet,
      breakThrough: args.breakThrough === undefined ? current.breakThrough : args.breakThrough === 'failures',
    }));
    return {
      ...(await settingsCard(store, invocation.user, settings)),
      text: `No direct messages from ${quiet.from} to ${quiet.to} (${quiet.zone})${settings.breakThrough ? ', except failures of your work' : ''}.`,
      status: 'success',
      visibility: 'private',
    };
  },
});
