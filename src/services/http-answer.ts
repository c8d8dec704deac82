/** The errors the shared HTTP layer (http.ts) makes of a service's failed or unreadable answers. */
import { type Said, UpstreamError } from '../core/errors';

/** What the message of an {@link AnswerError} is made of. */
export type AnswerKind =
  /** The service's own words (read by `readError`, or a short plain-text body). */
  | 'said'
  /** Only the status (no readable words: an empty body, an HTML page, a `Retry-After` too long). */
  | 'status'
  /** A success answer Deckhand does not understand (not the documented shape). */
  | 'unreadable';

/**
 * The {@link UpstreamError} of an answer, as the HTTP layer read it: callers that map errors further
 * (the media client) decide on `kind` and `said`, never on the message text.
 */
export class AnswerError extends UpstreamError {
  constructor(
    service: string,
    status: number,
    message: Said,
    hint: string | undefined,
    /** What the message is made of. */
    readonly kind: AnswerKind,
    /** The service's own words, when `kind` is `said`. */
    readonly said?: string,
  ) {
    super(service, status, message, hint);
  }
}
