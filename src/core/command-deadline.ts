/**
 * A command's deadline and what it is waiting on. A command runs under a scope (AsyncLocalStorage)
 * that holds the time by which it must have answered: the one HTTP layer cuts every upstream request
 * made inside it at that time — one request and all of its retries together — and tells the scope
 * while a request to a service is open. When the command has not replied a few seconds in and is
 * waiting on a service, the user sees a "still waiting for …" card, which its answer then replaces.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Translator, translator } from '../i18n/translate';
import type { CardSurface } from './card-surface';
import type { MessageHandle } from './command';
import type { Card } from './reply';

/** What the HTTP layer reads and tells while a command runs. */
export interface CommandScope {
  /** When the command must have its answer (ms since the epoch). */
  readonly deadline: number;
  /** The deadline as configured, from the command's start (ms), for messages. */
  readonly budgetMs: number;
  /** Aborts once the deadline has passed. */
  readonly signal: AbortSignal;
  /**
   * A request to `service` opened (`service` names it in a language, as people call it: `the
   * calendar`, `der Kalender`); the returned function closes it.
   */
  waiting(service: ServiceCalled): () => void;
}

/** How people call a service, in the language of `say` (`the calendar`, `der Kalender`). */
export type ServiceCalled = (say: Translator) => string;

const scopes = new AsyncLocalStorage<CommandScope>();

/** The scope of the command whose work is running, if any. */
export function currentCommandScope(): CommandScope | undefined {
  return scopes.getStore();
}

/** How a guarded command runs. */
export interface DeadlineOptions {
  /** The command's deadline from its start, in ms (`COMMAND_DEADLINE_MS`). */
  deadlineMs: number;
  /** How long a request may stay open before the waiting card is shown (default: 3 s, at most half the deadline). */
  waitingCardMs?: number;
  /**
   * The words of the waiting card: the reply's language, read once, when the card is first shown, and
   * kept for each of its edits. English when not given.
   */
  say?: () => Translator | Promise<Translator>;
}

/** The waiting card of a command whose request to `service` is taking long. */
export function waitingCard(service: ServiceCalled, reader?: Translator): Card {
  const say = wordsOf(reader);
  return {
    text: say.t('deadline-still-waiting', service(say)),
    status: 'progress',
    ...localeOf(reader),
  };
}

/** What a public waiting card becomes when the answer is private (not for the channel). */
function answeredPrivately(reader: Translator | undefined): Card {
  return { text: wordsOf(reader).t('deadline-answered-privately'), status: 'info', ...localeOf(reader) };
}

/** What a waiting card becomes when the command ended without a reply of its own. */
function ended(reader: Translator | undefined): Card {
  return { text: wordsOf(reader).t('deadline-finished'), status: 'info', ...localeOf(reader) };
}

function wordsOf(reader: Translator | undefined): Translator {
  return reader ?? translator('en');
}

/** The card's language when it is known (else the surface stamps the conversation's). */
function localeOf(reader: Translator | undefined): { locale?: string } {
  return reader ? { locale: reader.language } : {};
}

/**
 * Runs `work` (the command runner handling one input) under a deadline, on a surface that shows the
 * waiting card when a request stays open past `waitingCardMs` before the first reply; the first
 * reply then edits that card (a private reply is posted privately, and the card says so).
 */
export async function runWithDeadline(
  options: DeadlineOptions,
  surface: CardSurface,
  work: (surface: CardSurface) => Promise<void>,
): Promise<void> {
  const controller = new AbortController();
  const cut = setTimeout(() => controller.abort(), options.deadlineMs);
  const waitMs = options.waitingCardMs ?? Math.min(3000, Math.floor(options.deadlineMs / 2));
  let words: Promise<Translator | undefined> | undefined;
  // Read once, so the card and its edits are in one language.
  const say = (): Promise<Translator | undefined> => {
    words ??= Promise.resolve()
      .then(() => options.say?.())
      .catch(() => undefined);
    return words;
  };
  let replied = false;
  let shownCard: Promise<MessageHandle | undefined> | undefined;
  const timers = new Set<NodeJS.Timeout>();
  const scope: CommandScope = {
    deadline: Date.now() + options.deadlineMs,
    budgetMs: options.deadlineMs,
    signal: controller.signal,
    waiting(service) {
      if (replied || shownCard) return () => undefined;
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (replied || shownCard) return;
        shownCard = say()
          .then((reader) => surface.reply(waitingCard(service, reader)))
          .catch(() => undefined);
      }, waitMs);
      timers.add(timer);
      return () => {
        clearTimeout(timer);
        timers.delete(timer);
      };
    },
  };
  const guarded: CardSurface = {
    ...surface,
    update: (handle, card) => surface.update(handle, card),
    ...(surface.openForm ? { openForm: surface.openForm.bind(surface) } : {}),
    async reply(card) {
      if (replied) return surface.reply(card);
      replied = true;
      const shown = await shownCard;
      if (!shown) return surface.reply(card);
      if (card.visibility === 'private') {
        await surface.update(shown, answeredPrivately(await say()));
        return surface.reply(card);
      }
      await surface.update(shown, card);
      return shown;
    },
  };
  try {
    await scopes.run(scope, () => work(guarded));
  } finally {
    clearTimeout(cut);
    for (const timer of timers) clearTimeout(timer);
    const unanswered = !replied;
    replied = true;
    const shown = await shownCard;
    if (shown && unanswered) await surface.update(shown, ended(await say())).catch(() => undefined);
  }
}
