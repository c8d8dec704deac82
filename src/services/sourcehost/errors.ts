/**
 * How the source host's errors reach the user: its `basic-error` (`message`) and `validation-error`
 * (`errors[]`, where `custom` carries its own message) bodies, rate limits (primary: the window is
 * used up until `x-ratelimit-reset`; secondary: slow down, `retry-after`), and the OAuth token
 * endpoint's errors, which come with HTTP 200.
 */
import { DeckhandError, UpstreamError } from '../../core/errors';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One line per validation error: `custom` → its message; others → `field: code`. */
function validationLines(errors: unknown[]): string[] {
  return errors.filter(isRecord).map((error) => {
    if (typeof error.message === 'string' && error.message) return error.message;
    const where = [error.resource, error.field].filter((v) => typeof v === 'string').join('.');
    return `${where || 'request'}: ${String(error.code ?? 'invalid')}`;
  });
}

/** Reads the source host's own message out of an error body, if it has one. */
export function readSourcehostError(_status: number, body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  if (!isRecord(body)) return undefined;
  const message = typeof body.message === 'string' ? body.message.trim() : '';
  const details = Array.isArray(body.errors) ? validationLines(body.errors) : [];
  if (details.length > 0) return [message, ...details].filter(Boolean).join(': ');
  return message || undefined;
}

/** `14:05 (Europe/Berlin)`: a reset time in the bot's local time zone. */
export function localTime(epochMs: number): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const time = new Date(epochMs).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return `${time} (${zone})`;
}

/** The source host is rate-limiting Deckhand (or the user's token); nothing was done. */
export class RateLimitedError extends UpstreamError {
  /** Unix ms when trying again makes sense. */
  readonly retryAt: number;
  /** `primary` (the hourly window is used up) or `secondary` (slow down). */
  readonly kind: 'primary' | 'secondary';

  constructor(kind: 'primary' | 'secondary', status: number, retryAt: number, resource: string) {
    const until = localTime(retryAt);
    super('sourcehost', status, (say) => ({
      message:
        kind === 'primary'
          ? say.t('sourcehost-api-rate-limit-used-up', resource, until)
          : say.t('sourcehost-api-slow-down', until),
      hint: say.t('sourcehost-api-rate-limit-hint'),
    }));
    this.retryAt = retryAt;
    this.kind = kind;
  }
}

/** Error codes of the OAuth token endpoint (HTTP 200 with `error`). */
export type OAuthTokenErrorCode =
  | 'bad_verification_code'
  | 'incorrect_client_credentials'
  | 'redirect_uri_mismatch'
  | 'unverified_user_email'
  | (string & {});

/** The token endpoint refused the code exchange. */
export class OAuthTokenError extends DeckhandError {
  readonly code: string;
  /** The endpoint's `error`. */
  readonly error: OAuthTokenErrorCode;
  /** The endpoint's `error_description`. */
  readonly description: string;

  constructor(error: OAuthTokenErrorCode, description: string | undefined) {
    super((say) => ({ message: say.t('sourcehost-api-sign-in-refused', description || error) }));
    this.error = error;
    this.description = description ?? '';
    this.code = `oauth.${error}`;
  }
}
