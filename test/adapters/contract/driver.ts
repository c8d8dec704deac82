/**
 * What the adapter contract suite needs from one platform: a running Deckhand with that adapter
 * against its fake (`test/fakes/`) or, for IRC, a real test network; a conversation to post in; and
 * ways to see what a user sees and to make the platform misbehave. Where a platform cannot do
 * something, its driver says so in `cannot`, and the contract case asserts the documented
 * alternative instead.
 */

import type { Platform } from '../../../src/core/conversation';
import type { App } from '../../../src/wiring';

/** One message as a person in the conversation sees it now. */
export interface Shown {
  /** Platform message id (stable across edits). */
  id: string;
  /** Every string of the message as the platform displays it (markup rendered, entities decoded). */
  text: string;
  /** Files attached to (or sent with) the message: name and content. */
  files: { name: string; content: string }[];
  /** How many times the message was edited. */
  edits: number;
  /**
   * The platform messages this one was sent as, where one card is several (IRC's lines, each within
   * {@link ContractDriver.maxMessageChars}); absent where a card is one message.
   */
  lines?: string[];
  /**
   * The whole card, as its read-only web page shows it (`/cards/<id>`), where the message is a summary
   * that links to it (IRC); absent elsewhere.
   */
  page?: string;
}

/** What a platform genuinely cannot do, and what it does instead (asserted by the suite). */
export interface Inabilities {
  /** No rate limits (the shell): a burst of posts is shown whole and in order. */
  rateLimits?: string;
  /** The conversation cannot go away (the shell's terminal): a post there always lands. */
  goneConversations?: string;
  /**
   * No edits (IRC): a card's later version is a new short line of the same card (its {@link Shown.id}),
   * the message first posted stays as it was.
   */
  edits?: string;
  /**
   * No native buttons (the terminal, IRC): a button is a numbered choice pressed by typing its number,
   * a deliberate line, so there are no accidental double clicks: each press runs.
   */
  nativeButtons?: string;
  /**
   * No threads Deckhand posts in yet (Discord, the terminal): a threaded subscription's later events
   * are messages of their own, and the first message is still edited to the latest state.
   */
  threads?: string;
}

/** The two people of the button cases. */
export type Presser = 'admin' | 'stranger';

/** A per-platform driver of the contract suite. */
export interface ContractDriver {
  platform: Platform;
  /** The running Deckhand (its runner posts through the adapter's messenger). */
  app: App;
  /** The conversation the bot posts in. */
  conversationId: string;
  /** The most characters one message may hold on this platform (the fake refuses more). */
  maxMessageChars: number;
  cannot: Inabilities;
  /**
   * The bot's messages in the conversation, oldest first (where posting is queued, as IRC's is, once
   * everything queued so far has arrived).
   */
  shown(): Promise<Shown[]>;
  /**
   * The bot's private replies that are messages of their own outside {@link shown} (Discord's
   * ephemeral interaction replies, which carry buttons), oldest first; absent where there are none.
   */
  privateShown?(): Promise<Shown[]>;
  /**
   * Characters that would take effect in this platform's text (IRC's formatting codes, CTCP, a line
   * break that starts a line of its own), added after the contract's untrusted text; absent where
   * the contract's text already holds all there is. {@link inertProblems} reports any that took effect.
   */
  controls?: string;
  /**
   * Problems with how untrusted `text` arrived: a mention that pings, markup that took effect, a
   * control sequence that reached the terminal. Empty when it is shown inert.
   */
  inertProblems(text: string): Promise<string[]>;
  /** The next post is answered with a rate limit (429 with a short retry-after). */
  rateLimitNextPost(): void;
  /** Posting attempts in the conversation whose text contains `text` (refused ones included). */
  postAttempts(text: string): number;
  /**
   * The bot is removed from the conversation: every later post is refused with the platform's error.
   * Resolves once the removal has reached the bot (IRC: the KICK was seen).
   */
  removeBot(): void | Promise<void>;
  /** The user id the core sees for a presser. */
  userId(who: Presser): string;
  /**
   * Presses the button labelled `label` on the bot's message `messageId` as `who`, like the
   * platform delivers it (a click, or the typed number where there are no native buttons); resolves
   * once the platform has handed the press over.
   */
  press(messageId: string, label: string, who: Presser): Promise<void>;
  /** Answers the one field (`Answer`) of the form the last press opened for `who`, and submits it. */
  answerForm(who: Presser, value: string): Promise<void>;
  /** Resolves once every press handed over so far has been answered and its work has finished. */
  idle(): Promise<void>;
  /**
   * The pictures the bot sent in the conversation, as the platform holds them: Slack's uploaded
   * files, the Discord attachments an embed shows as its image, Telegram photos, the PNG files the
   * terminal wrote, the pictures of the card pages IRC lines link to.
   */
  pictures(): Promise<{ name: string; data: Buffer }[]>;
  /** The bot's messages in the thread of message `messageId` (Slack `thread_ts`, Telegram replies). */
  threadReplies(messageId: string): Promise<Shown[]>;
  /** Everything the bot showed anywhere (messages, private replies, notices), as one string. */
  seen(): string;
  /** What the fake saw lately, for a failure message. */
  debug?(): string;
  /** Requests the fake saw that the real platform would refuse. */
  violations(): string[];
  close(): Promise<void>;
}
