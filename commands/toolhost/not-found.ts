/** "It does not exist" answers said in the catalog's words (English in logs and the audit trail). */
import { type DeckhandError, NotFoundError } from '../../src/core/errors';
import { translator } from '../../src/i18n/translate';

/** What the reader is told, in their language. */
type Words = NonNullable<DeckhandError['words']>;

/** A {@link NotFoundError} whose message and hint are `words`: English for logs, the reader's in the chat. */
export function notFound(words: Words, options?: ErrorOptions): NotFoundError {
  const english = words(translator('en'));
  const error = new NotFoundError(english.message, english.hint, options);
  error.words = words;
  return error;
}

/** What `lookup` finds; where it finds nothing (a {@link NotFoundError}), that said in `words`. */
export async function lookedUp<T>(lookup: () => Promise<T>, words: Words): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof NotFoundError) throw notFound(words, { cause: error });
    throw error;
  }
}
