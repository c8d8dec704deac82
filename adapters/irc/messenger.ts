/**
 * Posting on IRC from any process: a card becomes at most three lines (render.ts), queued on the
 * IRC outbox, which the process holding the connection delivers at the flood-controlled pace. IRC
 * cannot edit: a card's later version is posted as one new short line, and only when it says
 * something new — a long-running card shows its start and its end, not every step in between. The
 * line carries the latest of the text lines the card gained since it was last posted (who is on a
 * failure, that it recovered), so a reader of the channel learns what changed.
 * A conversation the bot was kicked from is gone: posting there throws ConversationGoneError.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CARD_VIEW_PATH, keepCardView, newCardViewId } from '../../src/core/card-view';
import type { ChatUser, MessageHandle } from '../../src/core/command';
import { conversationId, parseConversationId } from '../../src/core/conversation';
import { ConversationGoneError } from '../../src/core/errors';
import type { KeyValueStore } from '../../src/core/host';
import type { LineOutbox } from '../../src/core/line-outbox';
import type { Messenger } from '../../src/core/messenger';
import type { Card } from '../../src/core/reply';
import { cardInWords } from '../command-words';
import { timesAsText } from '../text';
import type { IrcButtons } from './buttons';
import { renderCardLines, renderTransition } from './render';

/** What the messenger needs. */
export interface IrcMessengerDeps {
  outbox: LineOutbox;
  buttons: IrcButtons;
  /** Where whole cards are kept for their web view (sealed). */
  views: KeyValueStore;
  /** The last posted state of each card (for "say something new only"). */
  phases: KeyValueStore;
  /** Where the web view is served: `<base>/cards/<id>`. */
  viewBase: string;
  redis: Redis;
  prefix: string;
  /** Writes command mentions as typed on IRC (`/deploy` → `!deploy`, adapters/command-words.ts). */
  words?: (text: string) => string;
}

const PHASE_TTL_MS = 7 * 24 * 3600_000;

/** The Redis set of gone conversations. */
export function goneKey(prefix: string): string {
  return `${prefix}irc:gone`;
}

/** A card's text lines that hold something. */
const textLines = (card: Card) => (card.text ?? '').split('\n').filter((l) => l.trim());

/** What a card's later version must differ in to be posted again. */
function phaseOf(card: Card): string {
  const first = textLines(card)[0] ?? '';
  const buttons = (card.buttons ?? []).map((b) => b.label).join('|');
  return JSON.stringify([card.status ?? '', card.title ?? '', first, buttons]);
}

/** What was last posted of a card: its phase and its text lines. */
interface Posted {
  phase: string;
  lines: string[];
}

/** The newest text line of `card` that its last posted version did not have (not its first line). */
function newsOf(card: Card, before: Posted | undefined): string | undefined {
  const lines = textLines(card);
  const had = new Set(before?.lines ?? []);
  const news = lines.slice(1).filter((l) => !had.has(l));
  return news.at(-1);
}

/** See the module comment. */
export class IrcMessenger implements Messenger {
  constructor(private readonly deps: IrcMessengerDeps) {}

  /** True when the bot was kicked from the conversation (and not invited back). */
  async isGone(conversationId: string): Promise<boolean> {
    return (await this.deps.redis.sismember(goneKey(this.deps.prefix), conversationId)) === 1;
  }

  private async lines(conversationId: string, card: Card, cardId: string, transition?: { news?: string }) {
    const shown = cardInWords(timesAsText(card), this.deps.words ?? ((text) => text));
    const numbers = await this.deps.buttons.number(conversationId, cardId, shown.buttons ?? []);
    const viewId = newCardViewId();
    const url = `${this.deps.viewBase}${CARD_VIEW_PATH}${viewId}`;
    let used = false;
    const viewUrl = () => {
      used = true;
      return url;
    };
    const lines = transition
      ? [renderTransition(shown, viewUrl, numbers, transition.news)]
      : renderCardLines(shown, numbers, viewUrl);
    if (used) await keepCardView(this.deps.views, shown, viewId);
    return lines;
  }

  /** Queues lines for a conversation (refused when it is gone). */
  async queue(conversationId: string, id: string, lines: string[]): Promise<void> {
    if (await this.isGone(conversationId)) {
      throw new ConversationGoneError(conversationId, (say) => say.t('irc-gone-kicked'));
    }
    const target = parseConversationId(conversationId).channel;
    await this.deps.outbox.enqueue(id, { target, conversationId, lines });
  }

  /**
   * A private query to the person's services account: the account's name is a nick registered to it,
   * which the network's services keep for its owner, so the message reaches them or nobody. Someone not
   * identified with services (`~nick`) gets none: whoever holds that nick later is not them.
   */
  async openDirect(user: ChatUser): Promise<string> {
    if (user.id.startsWith('~') || !user.id) {
      throw new ConversationGoneError(`irc:${user.workspace}:${user.id}`, (say) =>
        say.t('irc-gone-not-identified'),
      );
    }
    return conversationId({ platform: 'irc', workspace: user.workspace, channel: user.id });
  }

  async post(conversationId: string, card: Card): Promise<MessageHandle> {
    const cardId = newCardViewId();
    const lines = await this.lines(conversationId, card, cardId);
    await this.queue(conversationId, `card-${cardId}`, lines);
    await this.remember(cardId, card);
    return { platform: 'irc', conversationId, ref: { message: cardId } };
  }

  private async remember(cardId: string, card: Card): Promise<void> {
    const posted: Posted = { phase: phaseOf(card), lines: textLines(card) };
    await this.deps.phases.set(cardId, JSON.stringify(posted), { ttlMs: PHASE_TTL_MS });
  }

  async update(handle: MessageHandle, card: Card): Promise<void> {
    const cardId = handle.ref.message as string;
    const phase = phaseOf(card);
    if (card.status === 'progress') return;
    const stored = await this.deps.phases.get(cardId);
    const before = stored === undefined ? undefined : (JSON.parse(stored) as Posted);
    if (before?.phase === phase) return;
    await this.remember(cardId, card);
    const news = newsOf(card, before);
    const lines = await this.lines(handle.conversationId, card, cardId, news ? { news } : {});
    const digest = createHash('sha256').update(phase).digest('base64url').slice(0, 22);
    await this.queue(handle.conversationId, `card-${cardId}-${digest}`, lines);
  }
}
