/**
 * How the calendar's errors reach the user. WordPress answers `{code, message, data: {status}}`
 * (specs/calendar/README.md §7); the plugin's and core's codes are turned into sentences that say
 * what was wrong and what to do: an event that does not exist or is in the trash, credentials the
 * site refused (with the link where an application password is made), a parameter it refused.
 */
import { NotFoundError, PermissionDenied, UpstreamError, UsageError } from '../../core/errors';
import { ErrorBodySchema } from './schemas';

/** The thing is in the trash (reading it, or trashing it again): nothing was changed. */
export class InTrashError extends UsageError {
  /** The site's status: 403 (`event-no-longer-available`) or 410 (`…-is-in-trash`). */
  readonly status: number;

  constructor(message: string, options: { cause?: unknown; status?: number; write?: boolean } = {}) {
    super(message, {
      hint: `${options.write === false ? '' : 'Nothing was changed. '}An editor can restore it from the trash in WordPress.`,
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

/** Fixed sentences for the plugin's codes whose own messages are vague. */
function messageFor(code: string, subject: ErrorSubject, own: string): string | undefined {
  const thing = subject.ref === undefined ? `The ${subject.kind}` : `${cap(subject.kind)} ${subject.ref}`;
  switch (code) {
    case 'rest-event-not-found':
    case 'event-not-found':
    case 'venue-not-found':
    case 'organizer-not-found':
    case 'rest_term_invalid':
    case 'rest_post_invalid_id':
      return `${thing} does not exist on the calendar.`;
    case 'rest-invalid-event-id':
      return `${thing} is not an event.`;
    case 'event-no-longer-available':
      return `${thing} is in the trash.`;
    case 'event-is-in-trash':
    case 'venue-is-in-trash':
    case 'organizer-is-in-trash':
      return `${thing} is already in the trash.`;
    case 'event-not-accessible':
    case 'venue-not-accessible':
    case 'organizer-not-accessible':
      return `${thing} is not published, and the calendar account Deckhand uses may not read it.`;
    case 'event-password-protected':
      return `${thing} is password-protected.`;
    case 'event-archive-page-not-found':
    case 'venue-archive-page-not-found':
    case 'organizer-archive-page-not-found':
      return `There is no such page of ${subject.kind}: the list is shorter.`;
    case 'duplicate_term_slug':
      return `Another ${subject.kind} already has that slug.`;
    case 'rest_taxonomy_not_hierarchical':
      return `A ${subject.kind} cannot have a parent.`;
    case 'rest_no_route':
      return "The calendar has no such API route. Check CALENDAR_URL (the site's REST root, e.g. https://example.org/wp-json) and CALENDAR_NAMESPACE, and that the site's Events Calendar REST API is switched on.";
    case 'event-tickets-not-active':
    case 'event-tickets-api-not-active':
      return 'The calendar site does not have Event Tickets, so it cannot filter by tickets.';
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
export function readCalendarError(_status: number, body: unknown, subject: ErrorSubject = { kind: 'item' }) {
  const parsed = ErrorBodySchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { code, message, data } = parsed.data;
  if (code === 'rest_invalid_param') {
    const names = paramNames(data?.params);
    if (subject.ref !== undefined && names.length > 0 && names.every((n) => n === 'id' || n === 'slug')) {
      return messageFor('rest-event-not-found', subject, message);
    }
    return names.length > 0
      ? `The calendar refused the value of ${names.join(', ')}.`
      : `The calendar refused a parameter${message ? `: ${message}` : '.'}`;
  }
  if (code === 'rest_missing_callback_param') {
    const params = paramNames(data?.params);
    return `The calendar needs ${params.length ? params.join(', ') : 'more parameters'}.`;
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
 * password, a 403 as missing rights of the calendar account.
 */
export function calendarError(
  error: UpstreamError,
  code: string | undefined,
  context: { siteUrl: string; user: string | undefined; action: string; write: boolean },
): Error {
  const link = applicationPasswordLink(context.siteUrl);
  if (error.status === 404 && code !== 'rest_no_route') {
    return new NotFoundError(error.message, undefined, { cause: error });
  }
  if (error.status === 401) {
    if (!context.user) {
      return new PermissionDenied(
        `The calendar needs a logged-in account to ${context.action}, and Deckhand has no calendar credentials.`,
        `Make an application password at ${link} and set CALENDAR_USER and CALENDAR_APP_PASSWORD.`,
      );
    }
    if (code === 'rest_forbidden') {
      // Credentials were sent, yet the site saw an anonymous caller: the header did not arrive.
      return new UpstreamError(
        'calendar',
        401,
        `The calendar site treated Deckhand as logged out although it sent the credentials of ${context.user}.`,
        'Some web servers drop the Authorization header before WordPress sees it; let it through (Apache: CGIPassAuth On).',
      );
    }
    if (!context.write) {
      // WordPress checks an application password on every request that carries one
      // (wp-includes/user.php wp_authenticate_application_password, rest_application_password_check_errors):
      // a revoked one fails reads of public events too, not only writes.
      return new UpstreamError(
        'calendar',
        401,
        `The calendar site refused the application password of ${context.user} (revoked or mistyped?), so Deckhand cannot ${context.action}: WordPress turns away every request that carries a refused password, even reads of public events.`,
        `Make a new application password for ${context.user} at ${link} and set it as CALENDAR_APP_PASSWORD (or link your calendar account again).`,
      );
    }
    return new UpstreamError(
      'calendar',
      401,
      `The calendar site refused the credentials of ${context.user}: ${error.message}`,
      `Make a new application password for ${context.user} at ${link} and set it as CALENDAR_APP_PASSWORD.`,
    );
  }
  if (error.status === 403 && (code === 'rest_forbidden' || code === 'rest_cannot_create')) {
    return new UpstreamError(
      'calendar',
      403,
      `The calendar account ${context.user ?? '(anonymous)'} is not allowed to ${context.action}.`,
      'Give that WordPress user a role that may edit events (Editor), or use another account.',
    );
  }
  if (code === 'event-no-longer-available' || code?.endsWith('-is-in-trash')) {
    return new InTrashError(error.message, { cause: error, status: error.status, write: context.write });
  }
  if (error.status === 400 && (code === 'rest_invalid_param' || code === 'rest_missing_callback_param')) {
    return new UsageError(error.message, context.write ? { hint: 'Nothing was changed.' } : {});
  }
  const hint = error.transient ? 'The calendar site had a problem; try again in a minute.' : undefined;
  return new UpstreamError('calendar', error.status, error.message, hint);
}
