/**
 * Personal notifications: a direct message to the person who started a deployment, build, one-off
 * job or upload when it ends (`/notify`). Each person's settings — on or off, quiet hours in their own
 * zone, whether failures break through, the platform their direct messages go to — are kept with
 * their linked identity, so they follow them across platforms. This module decides; the store keeps
 * the settings and the queue delivers.
 */
import { DateTime } from 'luxon';
import { type MessageKey, type Translator, translator } from '../i18n/translate';
import type { ChatUser, Invocation, MessageHandle } from './command';
import type { Platform } from './conversation';
import { DEFAULT_TIME_ZONE, isTimeZone } from './times';
import type { Outcome } from './watch';

/** Work shorter than this sends no direct message by default: its card was still in view when it ended. */
export const PERSONAL_MIN_DURATION_MS = 60_000;

/** Who started a piece of long-running work, recorded with the work when the command starts it. */
export interface Starter {
  user: ChatUser;
  /** Where the command was typed. */
  conversationId: string;
  /** Unix ms the work was started. */
  startedAt: number;
  /** The work's card, which the direct message links to where the platform has links to messages. */
  card?: MessageHandle | undefined;
}

/** The starter of work a command starts now. */
export function starterOf(
  invocation: Pick<Invocation, 'user' | 'conversationId'>,
  now = Date.now(),
): Starter {
  const { platform, workspace, id, name } = invocation.user;
  return {
    user: { platform, workspace, id, name },
    conversationId: invocation.conversationId,
    startedAt: now,
  };
}

/** Quiet hours: a daily range of local times (`22:00`–`07:00` runs over midnight) in a time zone. */
export interface QuietHours {
  /** `HH:MM`, 24-hour clock. */
  from: string;
  /** `HH:MM`, 24-hour clock; before `from` when the range runs over midnight. */
  to: string;
  /** IANA zone the times are in. */
  zone: string;
}

/** One person's notification settings. */
export interface NotifySettings {
  /** Direct messages about work they started (default on). */
  personal: boolean;
  /** The platform their direct messages go to; absent: where they started the work. */
  via?: Platform;
  /** No direct messages in this range of their local day. */
  quiet?: QuietHours;
  /** Failures still reach them during quiet hours. */
  breakThrough: boolean;
  /** Their chat accounts on each platform Deckhand saw them on (where `via` sends to). */
  accounts: Record<Platform, ChatUser>;
}

/** Settings of someone who never used `/notify`. */
export const DEFAULT_NOTIFY_SETTINGS: NotifySettings = { personal: true, breakThrough: false, accounts: {} };

/** A platform direct messages can go to, as its descriptor describes it. */
export interface DirectPlatform {
  name: Platform;
  /** Its name as people read it. */
  displayName: string;
  /** What it takes there, when something does (`only after you started a private chat with the bot`): a catalog message. */
  note?: MessageKey | undefined;
}

/**
 * The notification settings of chat users, kept per linked identity (a user without one: per chat
 * account). Implemented over Redis by `src/store/notify-settings.ts`.
 */
export interface PersonalNotifications {
  /** The settings that apply to `user` (the defaults when none were saved). */
  settingsOf(user: ChatUser): Promise<NotifySettings>;
  /** Changes `user`'s settings; `user` is remembered as their account on its platform. */
  update(user: ChatUser, change: (settings: NotifySettings) => NotifySettings): Promise<NotifySettings>;
  /** Remembers `user` as their account on its platform (their direct messages may go there). */
  remember(user: ChatUser): Promise<void>;
  /** True when `user` has a linked identity (settings follow them across platforms). */
  linked(user: ChatUser): Promise<boolean>;
  /** The platforms direct messages can be sent on. */
  readonly platforms: readonly DirectPlatform[];
}

const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of an `HH:MM` time; undefined when it is not one. */
export function clockMinutes(text: string): number | undefined {
  const match = CLOCK.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** `7:00` → `07:00`. */
function canonicalClock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * Parses `22:00-07:00` (a range may run over midnight) in `zone`; a string saying what is wrong
 * when it is not a range Deckhand can keep.
 */
export function parseQuietHours(
  text: string,
  zone: string,
  say: Translator = translator('en'),
): QuietHours | string {
  const parts = text.split('-');
  if (parts.length !== 2) return say.t('notify-quiet-not-range', text.slice(0, 40));
  const [from, to] = parts.map((part) => clockMinutes(part ?? ''));
  if (from === undefined || to === undefined) return say.t('notify-quiet-bad-clock', text.slice(0, 40));
  if (from === to) return say.t('notify-quiet-empty');
  if (!isTimeZone(zone)) return say.t('notify-quiet-bad-zone', zone.slice(0, 64));
  return { from: canonicalClock(from), to: canonicalClock(to), zone };
}

/**
 * True when `at` falls in the quiet hours, read on the local clock of their zone (so they follow
 * daylight saving time). A range over midnight covers the evening and the next morning.
 */
export function inQuietHours(quiet: QuietHours, at: number): boolean {
  const zone = isTimeZone(quiet.zone) ? quiet.zone : DEFAULT_TIME_ZONE;
  const local = DateTime.fromMillis(at, { zone });
  const now = local.hour * 60 + local.minute;
  const from = clockMinutes(quiet.from) ?? 0;
  const to = clockMinutes(quiet.to) ?? 0;
  return from < to ? now >= from && now < to : now >= from || now < to;
}

/** What ended, for the decision. */
export interface EndedWork {
  outcome?: Outcome | undefined;
  /** Unix ms the work was started. */
  startedAt: number;
  /** Unix ms its end was seen. */
  endedAt: number;
  /** Shorter work sends nothing (default {@link PERSONAL_MIN_DURATION_MS}). */
  minDurationMs?: number;
}

/** Whether a person gets a direct message about work they started, and why not. */
export type PersonalVerdict = { send: true } | { send: false; reason: 'off' | 'short' | 'quiet' };

/**
 * The decision: on, the work took at least its minimum duration, and not in their quiet
 * hours — unless it failed and they let failures break through. (A starter of a tool's deployment,
 * build or job passed the maintainer check to start it, so these are failures of tools they maintain.)
 */
export function personalVerdict(settings: NotifySettings, work: EndedWork): PersonalVerdict {
  if (!settings.personal) return { send: false, reason: 'off' };
  const min = work.minDurationMs ?? PERSONAL_MIN_DURATION_MS;
  if (work.endedAt - work.startedAt < min) return { send: false, reason: 'short' };
  if (settings.quiet && inQuietHours(settings.quiet, work.endedAt)) {
    const breaks = settings.breakThrough && work.outcome === 'failure';
    if (!breaks) return { send: false, reason: 'quiet' };
  }
  return { send: true };
}

/**
 * The account the direct message goes to: their account on the preferred platform when Deckhand
 * knows it, else the one that started the work.
 */
export function directRecipient(settings: NotifySettings, starter: ChatUser): ChatUser {
  const preferred = settings.via ? settings.accounts[settings.via] : undefined;
  return preferred ?? starter;
}

/** The settings as lines for `/notify` (and `/me`): label and value, in Deckhand's words (`say`'s language). */
export function describeNotifySettings(
  settings: NotifySettings,
  platformName: (platform: Platform) => string = (platform) => platform,
  say: Translator = translator('en'),
): { label: string; value: string }[] {
  const quiet = settings.quiet;
  const via = settings.via;
  return [
    {
      label: say.t('notify-field-direct'),
      value: settings.personal ? say.t('notify-direct-on') : say.t('notify-direct-off'),
    },
    {
      label: say.t('notify-field-via'),
      value: via
        ? settings.accounts[via]
          ? platformName(via)
          : say.t('notify-via-unknown', platformName(via))
        : say.t('notify-via-starting-platform'),
    },
    {
      label: say.t('notify-field-quiet'),
      value: quiet
        ? settings.breakThrough
          ? say.t('notify-quiet-hours-break-through', quiet.from, quiet.to, quiet.zone)
          : say.t('notify-quiet-hours', quiet.from, quiet.to, quiet.zone)
        : say.t('notify-quiet-none'),
    },
  ];
}
