/**
 * Errors by where the failure happened. Each carries a stable `code`, and a message written for the
 * person in the chat: one or two lines saying what was wrong and what to do. Anything that is not a
 * {@link DeckhandError} is our own bug and is reported with a reference id only.
 */

import { type Translator, translator } from '../i18n/translate';
import { currentInvocationId, newInvocationId } from '../log';

/** An error's message and hint in a reader's language, from the catalog. */
export type Words = (say: Translator) => { message: string; hint?: string | undefined };

/**
 * What an error says: English text (a service's own message, or words not yet in the catalog), or
 * catalog {@link Words} — then its English is the error's `message` and `hint` (for logs and the
 * audit trail) and the reader gets them in their language.
 */
export type Said = string | Words;

/** The English of words, as logs and the audit trail keep them. */
export function inEnglish(words: Words): { message: string; hint?: string | undefined } {
  return words(translator('en'));
}

/**
 * `error` with its words for the reader set: for an error whose English `message` and `hint` stay as
 * they are (a service's own text, kept for logs), while the reader gets them in their language.
 */
export function withWords<E extends DeckhandError>(error: E, words: Words): E {
  error.words = words;
  return error;
}

/** Base class of every error Deckhand reports to a user as-is. */
export abstract class DeckhandError extends Error {
  /** Stable machine-readable code, e.g. `usage`, `permission`, `upstream.404`. */
  abstract readonly code: string;
  /** Optional second line: what the user can do about it. */
  readonly hint: string | undefined;
  /**
   * The message and hint in the reader's language, where they are in the catalog (`message` and
   * `hint` stay English, for logs and the audit trail). Not enumerable: two errors that say the same
   * in English are equal, and logs carry the English only.
   */
  declare words?: Words | undefined;

  /** `message` as English text, or as catalog words (their hint, if any, wins over `hint`). */
  constructor(message: Said, hint?: string, options?: ErrorOptions) {
    const words = typeof message === 'function' ? message : undefined;
    const english = words ? inEnglish(words) : undefined;
    super(english ? english.message : (message as string), options);
    this.name = new.target.name;
    this.hint = english?.hint ?? hint;
    Object.defineProperty(this, 'words', {
      value: words,
      writable: true,
      enumerable: false,
      configurable: true,
    });
  }
}

/** The user's input was wrong: unknown command, bad argument, malformed value. */
export class UsageError extends DeckhandError {
  readonly code: string = 'usage';
  /** The usage line of the command concerned, when known. */
  readonly usage: string | undefined;

  constructor(
    message: string,
    options: {
      hint?: string | undefined;
      usage?: string | undefined;
      words?: Words | undefined;
    } = {},
  ) {
    super(message, options.hint);
    this.usage = options.usage;
    this.words = options.words;
  }

  /**
   * A usage error said in the catalog's words: `words` in English are its message and hint (for logs
   * and the audit trail), in the reader's language what the chat shows.
   */
  static inWords(words: Words, options: { usage?: string | undefined } = {}): UsageError {
    const english = words(translator('en'));
    return new UsageError(english.message, { hint: english.hint, usage: options.usage, words });
  }
}

/**
 * Deckhand refused what the user handed it, so nothing was stored: a credential its service turned
 * away, or a secret typed where others can see it. Shown like a {@link UsageError}; audited as `refused`.
 */
export class RefusedError extends UsageError {
  override readonly code: string = 'refused';
}

/** The user lacks the rights (or the linked account) for what they asked. */
export class PermissionDenied extends DeckhandError {
  readonly code = 'permission';

  /** A refusal said in the catalog's words (English for logs and the audit trail, see {@link UsageError.inWords}). */
  static inWords(words: Words): PermissionDenied {
    return new PermissionDenied(words);
  }
}

/** The remote service answered with an error status. */
export class UpstreamError extends DeckhandError {
  readonly code: string;
  /** HTTP status the service answered with. */
  readonly status: number;
  /** Which service answered: the key its client was created with. */
  readonly service: string;

  /** `message` as the service's own English text, or as catalog words (see {@link Said}). */
  constructor(service: string, status: number, message: Said, hint?: string, options?: ErrorOptions) {
    super(message, hint, options);
    this.service = service;
    this.status = status;
    this.code = `upstream.${status}`;
  }

  /** True for statuses worth retrying later (5xx, 429). */
  get transient(): boolean {
    return this.status >= 500 || this.status === 429;
  }
}

/** The remote service could not be reached or did not answer in time. */
export class UnreachableError extends DeckhandError {
  readonly code = 'unreachable';
  readonly service: string;

  /** `message` as catalog words; without a hint of their own they get the one of every outage. */
  constructor(service: string, message: Said, options?: ErrorOptions) {
    super(
      typeof message === 'function' ? withOutageHint(message) : message,
      outageHint(translator('en')),
      options,
    );
    this.service = service;
  }
}

/** What to do about a service that cannot be reached. */
function outageHint(say: Translator): string {
  return say.t('error-unreachable-hint');
}

function withOutageHint(words: Words): Words {
  return (say) => {
    const said = words(say);
    return { message: said.message, hint: said.hint ?? outageHint(say) };
  };
}

/** A thing the user named does not exist (tool, build, job, button). */
export class NotFoundError extends DeckhandError {
  readonly code = 'not_found';
}

/**
 * Deckhand's own store (Redis) cannot be reached, so a request could not be recorded (its
 * at-most-once claim): it is refused at once and never run later.
 */
export class StoreUnavailableError extends DeckhandError {
  readonly code = 'store_unavailable';

  constructor(options?: ErrorOptions) {
    super((say) => ({ message: say.t('error-store-unavailable') }), undefined, options);
  }
}

/**
 * The reference shown to the user for an internal error and logged with its details: the id of the
 * invocation whose work failed (so the reference finds every log line of that command), or a fresh
 * one outside any invocation.
 */
export function newReferenceId(): string {
  return currentInvocationId() ?? newInvocationId();
}

/**
 * The bot can no longer post in a conversation (removed from the channel, channel deleted, blocked by
 * the user). Messengers throw it so deliveries stop there instead of retrying forever.
 */
export class ConversationGoneError extends DeckhandError {
  readonly code = 'conversation_gone';
  readonly conversationId: string;

  /** `reason`: the platform's own words, or Deckhand's in the reader's language. */
  constructor(conversationId: string, reason: string | ((say: Translator) => string)) {
    super((say) => ({
      message: say.t(
        'error-conversation-gone',
        conversationId,
        typeof reason === 'string' ? reason : reason(say),
      ),
    }));
    this.conversationId = conversationId;
  }
}

/**
 * The chat platform refused a post for now (rate limited) and asked to come back after `retryAfterMs`.
 * Thrown only for posts that asked for it (announcements, `DeliveryKey.announcement`): their delivery
 * job waits out this conversation's limit alone instead of the platform client pausing every post.
 */
export class RateLimitedError extends DeckhandError {
  readonly code = 'rate_limited';
  readonly conversationId: string;
  readonly retryAfterMs: number;

  constructor(conversationId: string, retryAfterMs: number) {
    super((say) => ({
      message: say.t('error-rate-limited', say.number(Math.ceil(retryAfterMs / 1000)), conversationId),
    }));
    this.conversationId = conversationId;
    this.retryAfterMs = retryAfterMs;
  }
}
