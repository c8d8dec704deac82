/**
 * How the calendar's errors reach the user. WordPress answers `{code, message, data: {status}}`
 * (specs/calendar/README.md §7); the plugin's and core's codes are turned into sentences that say
 * what was wrong and what to do: an event that does not exist or is in the trash, credentials the
 * site refused (with the link where an application password is made), a parameter it refused.
 */
import {
  NotFoundError,
  PermissionDenied,
  type Said,
  UpstreamError,
  UsageError,
  type Words,
  withWords,
} from '../../core/errors';
import { upstreamWords } from '../../core/upstream-words';
import { type MessageKey, type Translator, translator } from '../../i18n/translate';
import { ErrorBodySchema } from './schemas';

/** The language of logs and of the errors' `message`. */
const ENGLISH = translator('en');

/** What an editor can do about a thing in the trash (and that nothing was changed, for a write). */
function trashHint(say: Translator, write: boolean): string {
  return write ? say.t('calendar-api-trash-hint-write') : say.t('calendar-api-trash-hint');
}

/** The thing is in the trash (reading it, or trashing it again): nothing was changed. */
export class InTrashError extends UsageError {
  /** The site's status: 403 (`event-no-longer-available`) or 410 (`…-is-in-trash`). */
  readonly status: number;

  /** `said`: the message in the reader's language, where it is in the catalog (`message` is its English). */
  constructor(
    message: string,
    options: { cause?: unknown; status?: number; write?: boolean; said?: (say: Translator) => string } = {},
  ) {
    const write = options.write !== false;
    const said = options.said;
    super(message, {
      hint: trashHint(ENGLISH, write),
      words: (say) => ({ message: said ? said(say) : message, hint: trashHint(say, write) }),
    });
    if (options.cause) this.cause = options.cause;
    this.status = options.status ?? (options.cause instanceof InTrashError ? options.cause.status : 410);
  }
}

/** What is being acted on, for messages (`event 42`, `venue main-hall`). */
export interface ErrorSubject {
  /** `event`, `venue`, `organizer`, `category`, `tag`, or a list (`events`). */
  kind: string;
  /** The id or slug the user gave, when there is one. */
  ref?: string | number;
}

/** What the calendar does, in words, by what it acts on (`list venues`, `read this venue`). */
export const CALENDAR_ACTIONS = {
  venues: {
    list: 'calendar-api-action-list-venues',
    read: 'calendar-api-action-read-venue',
    create: 'calendar-api-action-create-venues',
    update: 'calendar-api-action-update-venue',
    delete: 'calendar-api-action-delete-venue',
  },
  organizers: {
    list: 'calendar-api-action-list-organizers',
    read: 'calendar-api-action-read-organizer',
    create: 'calendar-api-action-create-organizers',
    update: 'calendar-api-action-update-organizer',
    delete: 'calendar-api-action-delete-organizer',
  },
  categories: {
    list: 'calendar-api-action-list-categories',
    read: 'calendar-api-action-read-category',
    create: 'calendar-api-action-create-categories',
    update: 'calendar-api-action-update-category',
    delete: 'calendar-api-action-delete-category',
  },
  tags: {
    list: 'calendar-api-action-list-tags',
    read: 'calendar-api-action-read-tag',
    create: 'calendar-api-action-create-tags',
    update: 'calendar-api-action-update-tag',
    delete: 'calendar-api-action-delete-tag',
  },
} as const satisfies Record<string, Record<'list' | 'read' | 'create' | 'update' | 'delete', MessageKey>>;

/** The words for a kind of thing: itself (`The event`), with its id (`Event 42`), and its noun. */
const KINDS: Record<string, { the: MessageKey; ref: MessageKey; noun: MessageKey }> = {
  event: { the: 'calendar-api-the-event', ref: 'calendar-api-event-ref', noun: 'calendar-api-kind-event' },
  venue: { the: 'calendar-api-the-venue', ref: 'calendar-api-venue-ref', noun: 'calendar-api-kind-venue' },
  organizer: {
    the: 'calendar-api-the-organizer',
    ref: 'calendar-api-organizer-ref',
    noun: 'calendar-api-kind-organizer',
  },
  category: {
    the: 'calendar-api-the-category',
    ref: 'calendar-api-category-ref',
    noun: 'calendar-api-kind-category',
  },
  tag: { the: 'calendar-api-the-tag', ref: 'calendar-api-tag-ref', noun: 'calendar-api-kind-tag' },
  item: { the: 'calendar-api-the-item', ref: 'calendar-api-item-ref', noun: 'calendar-api-kind-item' },
};

/** Plural kinds (lists), as nouns. */
const LISTS: Record<string, MessageKey> = {
  events: 'calendar-api-kind-events',
  venues: 'calendar-api-kind-venues',
  organizers: 'calendar-api-kind-organizers',
  categories: 'calendar-api-kind-categories',
  tags: 'calendar-api-kind-tags',
};

/** A kind of thing as a noun (`venue`, `events`): the kind itself where it has no words. */
function noun(say: Translator, kind: string): string {
  const key = KINDS[kind]?.noun ?? LISTS[kind];
  return key ? say.t(key) : kind;
}

/** The thing acted on, at the start of a sentence: `The event`, `Venue 42`. */
function thingOf(say: Translator, subject: ErrorSubject): string {
  const words = KINDS[subject.kind];
  if (subject.ref === undefined) {
    return words ? say.t(words.the) : say.t('calendar-api-the-other', subject.kind);
  }
  const ref = String(subject.ref);
  return words ? say.t(words.ref, ref) : say.t('calendar-api-other-ref', cap(subject.kind), ref);
}

/** Fixed sentences for the plugin's codes whose own messages are vague. */
function messageFor(code: string, subject: ErrorSubject, own: string): Said | undefined {
  const thing =
    (key: MessageKey): Words =>
    (say) => ({ message: say.t(key, thingOf(say, subject)) });
  switch (code) {
    case 'rest-event-not-found':
    case 'event-not-found':
    case 'venue-not-found':
    case 'organizer-not-found':
    case 'rest_term_invalid':
    case 'rest_post_invalid_id':
      return thing('calendar-api-not-found');
    case 'rest-invalid-event-id':
      return thing('calendar-api-not-an-event');
    case 'event-no-longer-available':
      return thing('calendar-api-in-trash');
    case 'event-is-in-trash':
    case 'venue-is-in-trash':
    case 'organizer-is-in-trash':
      return thing('calendar-api-already-in-trash');
    case 'event-not-accessible':
    case 'venue-not-accessible':
    case 'organizer-not-accessible':
      return thing('calendar-api-not-published');
    case 'event-password-protected':
      return thing('calendar-api-password-protected');
    case 'event-archive-page-not-found':
    case 'venue-archive-page-not-found':
    case 'organizer-archive-page-not-found':
      return (say) => ({ message: say.t('calendar-api-no-such-page', noun(say, subject.kind)) });
    case 'duplicate_term_slug':
      return (say) => ({ message: say.t('calendar-api-duplicate-slug', noun(say, subject.kind)) });
    case 'rest_taxonomy_not_hierarchical':
      return (say) => ({ message: say.t('calendar-api-no-parent', noun(say, subject.kind)) });
    case 'rest_no_route':
      return (say) => ({ message: say.t('calendar-api-no-route') });
    case 'event-tickets-not-active':
    case 'event-tickets-api-not-active':
      return (say) => ({ message: say.t('calendar-api-no-tickets') });
    default:
      return own.trim() || undefined;
  }
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The parameter names of a `rest_invalid_param` / `rest_missing_callback_param` body. */
function paramNames(params: Record<string, string> | string[] | undefined): string[] {
  if (!params) return [];
  return Array.isArray(params) ? params : Object.keys(params);
}

/** The error body's `code`, when the body is a WordPress error. */
export function errorCode(body: unknown): string | undefined {
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.code : undefined;
}

/**
 * The user-facing sentence for an error body (undefined when the body is not a WordPress error);
 * used as the shared HTTP layer's `readError`.
 */
export function readCalendarError(
  _status: number,
  body: unknown,
  subject: ErrorSubject = { kind: 'item' },
): Said | undefined {
  const parsed = ErrorBodySchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { code, message, data } = parsed.data;
  if (code === 'rest_invalid_param') {
    const names = paramNames(data?.params);
    if (subject.ref !== undefined && names.length > 0 && names.every((n) => n === 'id' || n === 'slug')) {
      return messageFor('rest-event-not-found', subject, message);
    }
    if (names.length > 0) {
      return (say) => ({ message: say.t('calendar-api-refused-value', names.join(', ')) });
    }
    return (say) => ({
      message: message
        ? say.t('calendar-api-refused-parameter-said', message)
        : say.t('calendar-api-refused-parameter'),
    });
  }
  if (code === 'rest_missing_callback_param') {
    const params = paramNames(data?.params);
    return (say) => ({
      message: params.length
        ? say.t('calendar-api-needs', params.join(', '))
        : say.t('calendar-api-needs-more-parameters'),
    });
  }
  return messageFor(code, subject, message);
}

/** Where a site's users make application passwords (WordPress ≥ 5.6). */
export function applicationPasswordLink(siteUrl: string): string {
  return `${siteUrl.replace(/\/$/, '')}/wp-admin/authorize-application.php?app_name=Deckhand`;
}

/**
 * Turns an {@link UpstreamError} from the site into the error the user sees: a 404 on a thing as a
 * {@link NotFoundError}, a 401 as refused credentials naming the link to make an application
 * password, a 403 as missing rights of the calendar account. `action` says what was being done, in
 * words (`list events`).
 */
export function calendarError(
  error: UpstreamError,
  code: string | undefined,
  context: { siteUrl: string; user: string | undefined; action: MessageKey; write: boolean },
): Error {
  const link = applicationPasswordLink(context.siteUrl);
  const { user, action, write } = context;
  /** The site's error in the reader's language. */
  const said = (say: Translator) => error.words?.(say).message ?? error.message;
  if (error.status === 404 && code !== 'rest_no_route') {
    return withWords(new NotFoundError(error.message, undefined, { cause: error }), (say) => ({
      message: said(say),
    }));
  }
  if (error.status === 401) {
    if (!user) {
      return PermissionDenied.inWords((say) => ({
        message: say.t('calendar-api-needs-login', say.t(action)),
        hint: say.t('calendar-api-needs-login-hint', link),
      }));
    }
    if (code === 'rest_forbidden') {
      // Credentials were sent, yet the site saw an anonymous caller: the header did not arrive.
      return new UpstreamError('calendar', 401, (say) => ({
        message: say.t('calendar-api-treated-as-logged-out', user),
        hint: say.t('calendar-api-treated-as-logged-out-hint'),
      }));
    }
    if (!write) {
      // WordPress checks an application password on every request that carries one
      // (wp-includes/user.php wp_authenticate_application_password, rest_application_password_check_errors):
      // a revoked one fails reads of public events too, not only writes.
      return new UpstreamError('calendar', 401, (say) => ({
        message: say.t('calendar-api-password-refused-read', user, say.t(action)),
        hint: say.t('calendar-api-password-refused-read-hint', user, link),
      }));
    }
    return new UpstreamError('calendar', 401, (say) => ({
      message: say.t('calendar-api-credentials-refused', user, said(say)),
      hint: say.t('calendar-api-credentials-refused-hint', user, link),
    }));
  }
  if (error.status === 403 && (code === 'rest_forbidden' || code === 'rest_cannot_create')) {
    return new UpstreamError('calendar', 403, (say) => ({
      message: user
        ? say.t('calendar-api-not-allowed', user, say.t(action))
        : say.t('calendar-api-anonymous-not-allowed', say.t(action)),
      hint: say.t('calendar-api-not-allowed-hint'),
    }));
  }
  if (code === 'event-no-longer-available' || code?.endsWith('-is-in-trash')) {
    return new InTrashError(error.message, { cause: error, status: error.status, write, said });
  }
  if (error.status === 400 && (code === 'rest_invalid_param' || code === 'rest_missing_callback_param')) {
    return UsageError.inWords((say) => ({
      message: said(say),
      hint: write ? say.t('calendar-api-nothing-changed') : undefined,
    }));
  }
  const transient = error.transient;
  return withWords(
    new UpstreamError(
      'calendar',
      error.status,
      error.message,
      transient ? ENGLISH.t('calendar-api-site-problem') : undefined,
    ),
    (say) => ({
      message: upstreamWords(said(say)) || said(say),
      hint: transient ? say.t('calendar-api-site-problem') : undefined,
    }),
  );
}
