import { type MessageKey, t } from '../i18n/translate';
import type { CardTime } from './times';

export type { CardTime } from './times';

/**
 * The neutral reply model: a small card every adapter renders natively (blocks, embeds, HTML with an
 * inline keyboard, ANSI text). All strings in a card are untrusted plain text; renderers escape them.
 */

/** Colour/intent of a card. */
export type CardStatus = 'info' | 'progress' | 'success' | 'warning' | 'danger';

/** Who sees a reply. */
export type Visibility = 'public' | 'private';

/** One labelled value. */
export interface CardField {
  label: string;
  value: string;
  /** Optional link the value points to. */
  url?: string;
  /** Render side by side with neighbours where the platform can. */
  inline?: boolean;
  /**
   * A time shown after the value (`ok · build-1 · <time>`), or as the whole value when it is empty:
   * rendered by each platform in its own way (see `src/core/times.ts`), never a preformatted string.
   */
  time?: CardTime | undefined;
}

/** A button: rendered with the short id of a stored action. */
export interface CardButton {
  label: string;
  /** Short id of the stored action (see {@link ActionRequest}). Filled by the dispatcher. */
  actionId: string;
  style?: 'primary' | 'danger';
}

/** A link button that opens a URL, with no round trip to the bot. */
export interface CardLink {
  label: string;
  url: string;
}

/** A file attached to a reply (a transcript, a long log). */
export interface CardAttachment {
  filename: string;
  content: string;
}

/**
 * A picture on a card: PNG bytes (base64, so a stored card stays JSON) or a public URL, with alt text
 * and a text fallback (e.g. the chart as a text table) for where a picture cannot be shown.
 */
export interface CardImage {
  /** The PNG, base64-encoded. */
  pngBase64?: string;
  /** Or an https URL of the image. */
  url?: string;
  /** File name of the upload (`views.png`). */
  filename: string;
  /** What the picture shows, for screen readers and notifications. */
  alt: string;
  /** Pixel size, when known. */
  width?: number;
  height?: number;
  /** Shown where no picture can be (and by the terminal next to the written file). */
  fallback?: string;
}

/** The card itself. */
export interface Card {
  title?: string | undefined;
  text?: string | undefined;
  status?: CardStatus | undefined;
  fields?: CardField[] | undefined;
  /** A block of preformatted text (logs, config). */
  code?: { text: string; language?: string } | undefined;
  buttons?: CardButton[];
  links?: CardLink[];
  /** Small print under the card (ids, warnings from the service). */
  footer?: string | undefined;
  /** A time shown at the end of the footer (`updated <time>`). */
  footerTime?: CardTime;
  /**
   * The conversation's time zone (`/timezone`), filled in by the dispatcher: platforms without a date
   * token and the terminal show times in it, the others in their fallback text. Default UTC.
   */
  timeZone?: string;
  /**
   * The language the card is written in (`en`, `de`, `he`): a command's reply is stamped with the
   * reader's or the conversation's, anything else with the conversation's (`/language --here`) by the
   * card publisher. Renderers write their own words (status badges) in it. Default English.
   */
  locale?: string;
  /** A picture (a chart), with alt text and a text fallback: see {@link CardImage}. */
  image?: CardImage;
  attachments?: CardAttachment[];
  visibility?: Visibility;
  /**
   * Set on the note that a credential was stored another way (the one-time secret page): a terminal
   * still asking for that credential in a form stops asking.
   */
  closesForm?: boolean;
  /** Set when a queued job posts this card and may retry the post: see {@link DeliveryKey}. */
  delivery?: DeliveryKey;
}

/**
 * The idempotency key of a post a queued job may retry (an announcement). Messengers make the platform
 * dedupe on it where it can (a message nonce the platform enforces, message metadata looked up
 * before re-posting); a platform without such a key cannot (see docs/operations.md, restarts).
 */
export interface DeliveryKey {
  /** Unique per (event, conversation); the same on every attempt. */
  key: string;
  /**
   * When an earlier attempt started (ms), set only when one may have reached the platform without
   * its answer being recorded (a crash, a timeout): the messenger looks for that post first.
   */
  since?: number;
  /**
   * Set on announcements (subscriptions' news): a post the platform rate-limits is refused at once
   * with a `RateLimitedError`, so its delivery job retries this conversation later while posts to
   * other conversations, and command replies, go on (platforms limit per conversation).
   */
  announcement?: boolean;
}

/**
 * A button as a command declares it, before the dispatcher stores it and gives it a short id.
 * The click re-dispatches `command` with `args`, permission-checked for the person who clicked.
 */
export interface ActionRequest {
  label: string;
  command: string;
  args: Record<string, unknown>;
  style?: 'primary' | 'danger';
  /** Seconds the button stays valid. Defaults to the dispatcher's (24 h). */
  ttlSeconds?: number;
  /** Set on the confirm button of a destructive command. */
  confirmed?: boolean;
}

/** A card as commands produce it: buttons still as {@link ActionRequest}s. */
export interface DraftCard extends Omit<Card, 'buttons'> {
  actions?: ActionRequest[] | undefined;
  /**
   * The tool the card is about: the secret envvar values of that tool are masked in its code block
   * and attachments (see `docs/secrets.md`). Command replies default to the command's `tool` argument.
   */
  tool?: string | undefined;
  /**
   * The command did not do its work yet: it waits for something the user does first (linking an
   * account) and then runs again by itself. Audited as `deferred`, not `ok`; never rendered.
   */
  deferred?: boolean;
  /**
   * How the audit trail records a side-effect command that answered without changing anything:
   * `pending` when it waits for the user to finish elsewhere (a secret page, a sign-in link) and
   * stored nothing yet; `unchanged` when it only showed something (`/timezone` with no zone) and is
   * not audited. Never rendered.
   */
  audit?: 'pending' | 'unchanged';
}

const STATUS_KEY = {
  info: 'card-status-info',
  progress: 'card-status-progress',
  success: 'card-status-success',
  warning: 'card-status-warning',
  danger: 'card-status-danger',
} as const satisfies Record<CardStatus, MessageKey>;

/** Icon-free label for a status in the card's language, used by text renderers (`in progress`, `läuft`). */
export function statusLabel(status: CardStatus, locale?: string): string {
  return t(locale, STATUS_KEY[status]);
}

/** Icon-free label for a status in English. */
export const STATUS_LABEL: Record<CardStatus, string> = {
  info: statusLabel('info'),
  progress: statusLabel('progress'),
  success: statusLabel('success'),
  warning: statusLabel('warning'),
  danger: statusLabel('danger'),
};
