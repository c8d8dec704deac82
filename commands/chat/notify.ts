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
import { type Translator, translator } from '../../src/i18n/translate';
import type { HomeSection } from '../home';
import { type AppServices, commandsWith } from '../services';

const command = commandsWith<'notifications' | 'timeZones'>();

function nameOf(store: PersonalNotifications, platform: string): string {
  return store.platforms.find((p) => p.name === platform)?.displayName ?? platform;
}

/** The settings as a card: what applies, and a line on whether they follow the person. */
async function settingsCard(
  store: PersonalNotifications,
  user: ChatUser,
  settings: NotifySettings,
  say: Translator,
) {
  const linked = await store.linked(user);
  return {
    title: say.t('notify-me-title'),
    fields: describeNotifySettings(settings, (platform) => nameOf(store, platform), say),
    footer: linked ? say.t('notify-me-kept-linked') : say.t('notify-me-kept-here'),
  };
}

type Services = Pick<AppServices, 'notifications' | 'timeZones'>;

/** The notifications part of `/me`: the settings `/notify` shows, one line each. */
export const notifyHomeSection: HomeSection = async ({ services, invocation, say }) => {
  const store = services.notifications;
  const settings = await store.settingsOf(invocation.user);
  return {
    title: say.t('notify-me-title'),
    lines: describeNotifySettings(settings, (platform) => nameOf(store, platform), say).map(
      (field) => `${field.label}: ${field.value}`,
    ),
  };
};

/** `/notify`: the settings, with a line on how to change them. */
async function show(services: Services, invocation: Invocation, say: Translator) {
  const store = services.notifications;
  // Seen here, linked: their direct messages may be sent to this account (`--via`).
  await store.remember(invocation.user);
  const settings = await store.settingsOf(invocation.user);
  return {
    ...(await settingsCard(store, invocation.user, settings, say)),
    text: say.t('notify-me-change'),
    status: 'info' as const,
    visibility: 'private' as const,
  };
}

/** `/notify me on|off [--via <platform>]`. */
async function me(
  services: Services,
  invocation: Invocation,
  state: string,
  viaText: string | undefined,
  say: Translator,
) {
  const store = services.notifications;
  if (state !== 'on' && state !== 'off') {
    throw UsageError.inWords((say) => ({
      message: say.t('notify-me-on-or-off', state.slice(0, 20)),
      hint: say.t('notify-me-on-or-off-hint'),
    }));
  }
  const via = viaText?.trim().toLowerCase();
  const platform = via === undefined ? undefined : store.platforms.find((p) => p.name === via);
  if (via !== undefined && via !== 'here' && !platform) {
    const names = store.platforms.map((p) => p.name).join(', ');
    throw UsageError.inWords((say) => ({
      message: say.t('notify-me-no-direct-messages', via.slice(0, 20)),
      hint: say.t('notify-me-via-choices', names),
    }));
  }
  const settings = await store.update(invocation.user, (current) => {
    const next: NotifySettings = { ...current, personal: state === 'on' };
    if (via === 'here') delete next.via;
    else if (platform) next.via = platform.name;
    return next;
  });
  const lines = [state === 'on' ? say.t('notify-me-on') : say.t('notify-me-off')];
  if (platform && !settings.accounts[platform.name]) {
    lines.push(say.t('notify-me-account-unknown', platform.displayName));
  }
  if (platform?.note)
    lines.push(say.t('notify-me-platform-note', platform.displayName, say.t(platform.note)));
  return {
    ...(await settingsCard(store, invocation.user, settings, say)),
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
  say: Translator,
) {
  const store = services.notifications;
  if (range.toLowerCase() === 'off') {
    const settings = await store.update(invocation.user, (current) => {
      const next = { ...current, breakThrough: false };
      delete next.quiet;
      return next;
    });
    return {
      ...(await settingsCard(store, invocation.user, settings, say)),
      text: say.t('notify-me-quiet-off'),
      status: 'success' as const,
      visibility: 'private' as const,
    };
  }
  const zone =
    zoneText?.trim() ?? (await services.timeZones.get(invocation.conversationId)) ?? DEFAULT_TIME_ZONE;
  const quiet = parseQuietHours(range, zone, say);
  if (typeof quiet === 'string') {
    // What is wrong with the range, in the words the refusal is shown in.
    throw UsageError.inWords((words) => {
      const wrong = parseQuietHours(range, zone, words);
      return {
        message: typeof wrong === 'string' ? wrong : quiet,
        hint: words.t('notify-me-quiet-example'),
      };
    });
  }
  const settings = await store.update(invocation.user, (current) => ({
    ...current,
    quiet,
    breakThrough: breakThrough === undefined ? current.breakThrough : breakThrough === 'failures',
  }));
  return {
    ...(await settingsCard(store, invocation.user, settings, say)),
    text: settings.breakThrough
      ? say.t('notify-me-quiet-set-failures', quiet.from, quiet.to, quiet.zone)
      : say.t('notify-me-quiet-set', quiet.from, quiet.to, quiet.zone),
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
  async run({ args, services, invocation, sayPrivately = translator(undefined) }) {
    if (args.setting === undefined) {
      if (args.value !== undefined || args.via || args.zone || args.breakThrough) {
        throw UsageError.inWords((say) => ({
          message: say.t('notify-me-say-what'),
          hint: say.t('notify-me-say-what-hint'),
        }));
      }
      return { ...(await show(services, invocation, sayPrivately)), audit: 'unchanged' };
    }
    const setting = args.setting;
    const value = args.value?.trim();
    if (!value) {
      throw UsageError.inWords((say) => ({
        message: say.t('notify-me-needs-value', setting),
        hint: setting === 'me' ? say.t('notify-me-needs-value-me') : say.t('notify-me-needs-value-quiet'),
      }));
    }
    if (setting === 'me') {
      if (args.zone || args.breakThrough) {
        throw UsageError.inWords((say) => ({
          message: say.t('notify-me-quiet-options'),
          hint: say.t('notify-me-quiet-options-hint'),
        }));
      }
      return me(services, invocation, value.toLowerCase(), args.via, sayPrivately);
    }
    if (args.via) {
      throw UsageError.inWords((say) => ({
        message: say.t('notify-me-via-option'),
        hint: say.t('notify-me-via-option-hint'),
      }));
    }
    return quietHours(services, invocation, value, args.zone, args.breakThrough, sayPrivately);
  },
});
