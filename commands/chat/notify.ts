/**
 * `/notify`: your own notifications — a direct message when a deployment, build, one-off job or
 * upload you started ends, quiet hours in your own zone, and the platform they go to. Kept with your
 * linked identity (`/link source`), so they follow you across platforms.
 */
import { z } from 'zod';
import type { ChatUser, Invocation } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import {
  describeNotifySettings,
  type NotifySettings,
  type PersonalNotifications,
  parseQuietHours,
} from '../../src/core/personal-notify';
import { DEFAULT_TIME_ZONE } from '../../src/core/times';
import type { HomeSection } from '../home';
import { type AppServices, commandsWith } from '../services';

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

type Services = Pick<AppServices, 'notifications' | 'timeZones'>;

/** The notifications part of `/me`: the settings `/notify` shows, one line each. */
export const notifyHomeSection: HomeSection = async ({ services, invocation }) => {
  const store = services.notifications;
  const settings = await store.settingsOf(invocation.user);
  return {
    title: 'Your notifications',
    lines: describeNotifySettings(settings, (platform) => nameOf(store, platform)).map(
      (field) => `${field.label}: ${field.value}`,
    ),
  };
};

/** `/notify`: the settings, with a line on how to change them. */
async function show(services: Services, invocation: Invocation) {
  const store = services.notifications;
  // Seen here, linked: their direct messages may be sent to this account (`--via`).
  await store.remember(invocation.user);
  const settings = await store.settingsOf(invocation.user);
  return {
    ...(await settingsCard(store, invocation.user, settings)),
    text: 'Change them with /notify me on|off [--via <platform>] and /notify quiet 22:00-07:00 | off.',
    status: 'info' as const,
    visibility: 'private' as const,
  };
}

/** `/notify me on|off [--via <platform>]`. */
async function me(services: Services, invocation: Invocation, state: string, viaText: string | undefined) {
  const store = services.notifications;
  if (state !== 'on' && state !== 'off') {
    throw new UsageError(`/notify me takes on or off, not ${state.slice(0, 20)}.`, {
      hint: 'For example /notify me on, or /notify me off. Nothing was changed.',
    });
  }
  const via = viaText?.trim().toLowerCase();
  const platform = via === undefined ? undefined : store.platforms.find((p) => p.name === via);
  if (via !== undefined && via !== 'here' && !platform) {
    throw new UsageError(`Deckhand cannot send direct messages on ${via.slice(0, 20)}.`, {
      hint: `Choose one of: ${store.platforms.map((p) => p.name).join(', ')} (or --via here). Nothing was changed.`,
    });
  }
  const settings = await store.update(invocation.user, (current) => {
    const next: NotifySettings = { ...current, personal: state === 'on' };
    if (via === 'here') delete next.via;
    else if (platform) next.via = platform.name;
    return next;
  });
  const lines = [
    state === 'on'
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
    status: 'success' as const,
    visibility: 'private' as const,
  };
}

/** `/notify quiet 22:00-07:00 [--zone Z] [--break-through failures|none]`, `/notify quiet off`. */
async function quietHours(
  services: Services,
  invocation: Invocation,
  range: string,
  zoneText: string | undefined,
  breakThrough: 'failures' | 'none' | undefined,
) {
  const store = services.notifications;
  if (range.toLowerCase() === 'off') {
    const settings = await store.update(invocation.user, (current) => {
      const next = { ...current, breakThrough: false };
      delete next.quiet;
      return next;
    });
    return {
      ...(await settingsCard(store, invocation.user, settings)),
      text: 'Quiet hours are off: direct messages reach you at any time.',
      status: 'success' as const,
      visibility: 'private' as const,
    };
  }
  const zone =
    zoneText?.trim() ?? (await services.timeZones.get(invocation.conversationId)) ?? DEFAULT_TIME_ZONE;
  const quiet = parseQuietHours(range, zone);
  if (typeof quiet === 'string') {
    throw new UsageError(quiet, {
      hint: 'For example /notify quiet 22:00-07:00 --zone Europe/Berlin, or /notify quiet off. Nothing was changed.',
    });
  }
  const settings = await store.update(invocation.user, (current) => ({
    ...current,
    quiet,
    breakThrough: breakThrough === undefined ? current.breakThrough : breakThrough === 'failures',
  }));
  return {
    ...(await settingsCard(store, invocation.user, settings)),
    text: `No direct messages from ${quiet.from} to ${quiet.to} (${quiet.zone})${settings.breakThrough ? ', except failures of your work' : ''}.`,
    status: 'success' as const,
    visibility: 'private' as const,
  };
}

/**
 * `/notify`, `/notify me on|off [--via <platform>]`, `/notify quiet 22:00-07:00 | off`: one command
 * (a platform that shows subcommands cannot also show the bare `/notify`).
 */
export const notifyCommand = command({
  name: 'notify',
  args: z.object({
    setting: z.enum(['me', 'quiet']).optional().describe('opt-setting'),
    value: z.string().max(40).optional().describe('opt-value-notify'),
    via: z.string().max(20).optional().describe('opt-via'),
    zone: z.string().max(64).optional().describe('opt-zone-notify'),
    breakThrough: z.enum(['failures', 'none']).optional().describe('opt-break-through'),
  }),
  positional: ['setting', 'value'],
  examples: [
    '/notify',
    '/notify me off',
    '/notify me on --via here',
    '/notify quiet 22:00-07:00 --zone Europe/Berlin --break-through failures',
    '/notify quiet off',
  ],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    if (args.setting === undefined) {
      if (args.value !== undefined || args.via || args.zone || args.breakThrough) {
        throw new UsageError('Say what to change: /notify me … or /notify quiet ….', {
          hint: 'For example /notify me off, or /notify quiet 22:00-07:00. Nothing was changed.',
        });
      }
      return { ...(await show(services, invocation)), audit: 'unchanged' };
    }
    const value = args.value?.trim();
    if (!value) {
      throw new UsageError(`/notify ${args.setting} needs a value.`, {
        hint:
          args.setting === 'me'
            ? 'Type /notify me on or /notify me off. Nothing was changed.'
            : 'Type /notify quiet 22:00-07:00 or /notify quiet off. Nothing was changed.',
      });
    }
    if (args.setting === 'me') {
      if (args.zone || args.breakThrough) {
        throw new UsageError('--zone and --break-through go with /notify quiet.', {
          hint: 'For example /notify quiet 22:00-07:00 --zone Europe/Berlin. Nothing was changed.',
        });
      }
      return me(services, invocation, value.toLowerCase(), args.via);
    }
    if (args.via) {
      throw new UsageError('--via goes with /notify me.', {
        hint: 'For example /notify me on --via here. Nothing was changed.',
      });
    }
    return quietHours(services, invocation, value, args.zone, args.breakThrough);
  },
});
