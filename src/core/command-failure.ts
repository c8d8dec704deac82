/**
 * Answering a failed command, click or form: the error's own words (with a usage line, a hint, a
 * "did you mean"), or a reference id for our own bugs — never a stack trace — and the outcome it
 * counts as in the metrics.
 */
import type { Logger } from 'pino';
import { type Translator, translator } from '../i18n/translate';
import { commandCounter } from '../metrics';
import { type SecretScrubber, scrubSecrets } from '../secrets';
import type { BindingStore } from './actions';
import type { CardPublisher } from './card-publisher';
import type { CardSurface } from './card-surface';
import type { AnyCommand, Invocation } from './command';
import { DeckhandError, newReferenceId, PermissionDenied, UpstreamError, UsageError } from './errors';
import { replyLanguage } from './languages';
import { holdsSecret, pastedSecretError } from './pasted-secret';
import type { Card } from './reply';
import { type Token, tokenize } from './tokenize';
import { upstreamWords } from './upstream-words';
import { toolElsewhere } from './word-order';

/** A typed line as far as it was understood: its command and the words after the command's name. */
export interface ResolvedLine<S> {
  command: AnyCommand<S>;
  rest: Token[];
}

/** What answering failures needs from the application. */
export interface CommandFailuresDeps {
  publisher: CardPublisher;
  bindings: BindingStore;
  logger: Logger;
  /** Registered secrets: a failed line that holds one is not echoed back. */
  secrets?: SecretScrubber;
  /** The tools Deckhand knows, to say `/logs mytool web` was meant when `/logs web mytool` fails. */
  knownTools?: () => Iterable<string>;
}

/** The outcome label of a failure: the first part of its code (`upstream.404` → `upstream`), or `internal`. */
export function outcomeOf(error: unknown): string {
  return error instanceof DeckhandError ? (error.code.split('.')[0] as string) : 'internal';
}

/** Builds and sends the answers to failures. */
export class CommandFailures<S> {
  constructor(private readonly deps: CommandFailuresDeps) {}

  /** Answers a failure with its card; resolves with the outcome it counts as (`usage`, `internal`, …). */
  async answer(
    name: string,
    error: unknown,
    invocation: Invocation,
    surface: CardSurface,
    guess?: string,
  ): Promise<string> {
    const card = this.card(name, error, invocation, guess);
    try {
      await surface.reply(card);
    } catch (replyError) {
      this.deps.logger.error({ err: replyError, command: name }, 'could not deliver an error reply');
    }
    return outcomeOf(error);
  }

  /**
   * Answers the failure of a typed line: a line that holds a registered secret is answered without
   * echoing it; a usage error where a known tool was typed in another argument's place says so.
   */
  async answerLine(
    name: string,
    error: unknown,
    line: { text: string; resolved: ResolvedLine<S> | undefined },
    invocation: Invocation,
    surface: CardSurface,
  ): Promise<string> {
    if (error instanceof DeckhandError && (await this.echoesSecret(line.text, line.resolved, invocation))) {
      return this.answer(name, pastedSecretError(), invocation, surface);
    }
    const reordered =
      line.resolved && error instanceof DeckhandError
        ? this.toolFirstGuess(line.resolved, translator(replyLanguage(invocation, 'private')))
        : undefined;
    return this.answer(name, error, invocation, surface, reordered);
  }

  /** The card shown for a failure: the error's own words, or a reference id for our own bugs. */
  card(name: string, error: unknown, invocation: Invocation, guess?: string): Card {
    const platform = invocation.user.platform;
    const locale = replyLanguage(invocation, 'private');
    const say = translator(locale);
    if (error instanceof DeckhandError) {
      commandCounter.inc({ command: name, platform, outcome: outcomeOf(error) });
      const words = error.words?.(say);
      // A service's own words (passed through its message) are read as sentences, in every language.
      const own = words?.message ?? error.message;
      const said = error instanceof UpstreamError ? upstreamWords(own, say) || own : own;
      const lines = [scrubSecrets(said)];
      if (guess) lines.push(guess);
      if (error instanceof UsageError && error.usage) lines.push(say.t('help-usage', error.usage));
      const hint = words ? words.hint : error.hint;
      if (hint) lines.push(scrubSecrets(hint));
      else if (
        error instanceof UpstreamError &&
        error.status >= 400 &&
        error.status < 500 &&
        name !== 'unknown'
      ) {
        lines.push(say.t('command-rejected-upstream-hint', name));
      }
      const status = error instanceof PermissionDenied || error instanceof UsageError ? 'warning' : 'danger';
      const text = this.deps.publisher.formOf(invocation.conversationId).text(lines.join('\n'));
      return { text, status, visibility: 'private', locale };
    }
    const reference = newReferenceId();
    commandCounter.inc({ command: name, platform, outcome: 'internal' });
    this.deps.logger.error({ err: error, command: name, reference }, 'command failed');
    return {
      text: say.t('command-internal-error', reference),
      status: 'danger',
      visibility: 'private',
      locale,
    };
  }

  /**
   * True when a failed line typed where others see it holds a registered secret, global or of a tool
   * the line names or the conversation is bound to: its error would echo the secret.
   */
  private async echoesSecret(
    text: string,
    resolved: ResolvedLine<S> | undefined,
    invocation: Invocation,
  ): Promise<boolean> {
    const secrets = this.deps.secrets;
    if (!secrets || invocation.isPrivate) return false;
    const known = new Set(this.deps.knownTools?.() ?? []);
    let words: Token[] = [];
    try {
      words = resolved?.rest ?? tokenize(text).slice(1);
    } catch {
      words = [];
    }
    const named = words.map((t) => t.text).filter((w) => known.has(w));
    const bound = await this.deps.bindings.get(invocation.conversationId).catch(() => undefined);
    const tools = [...new Set([...named, ...(bound ? [bound] : [])])].slice(0, 3);
    return holdsSecret(text, tools, secrets).catch(() => false);
  }

  /** "Did you mean `/logs mytool web`?" when a known tool was typed in another argument's place. */
  private toolFirstGuess(resolved: ResolvedLine<S>, say: Translator): string | undefined {
    const tools = this.deps.knownTools ? new Set(this.deps.knownTools()) : undefined;
    if (!tools || tools.size === 0) return undefined;
    const { command, rest } = resolved;
    return toolElsewhere(command.name, (command.positional ?? []) as string[], rest, tools, say);
  }
}
