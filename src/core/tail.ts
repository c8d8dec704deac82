import type { MessageHandle } from './command';
import type { DraftCard } from './reply';

/** What a live log tail follows, as the feature that starts tails names it. */
export type TailKind = string;

/** One tail: a resource's log followed into one card of one conversation. */
export interface TailRequest {
  kind: TailKind;
  tool: string;
  /** The followed resource's id within its tool. */
  id: string;
  handle: MessageHandle;
  /** The language the first card is written in: every edit and the final card are written in it. */
  language?: string;
}

/** A log line of a job, as tails receive it. */
export interface TailLogEntry {
  pod: string;
  container: string;
  datetime: string;
  message: string;
}

/** How a tail card looks; provided by the commands that start tails. */
export interface TailView {
  /** The live card: the last lines, with a Stop button. */
  live(data: Pick<TailRequest, 'kind' | 'tool' | 'id'>, lastLines: string[], total: number): DraftCard;
  /** The final card, with the whole transcript attached. */
  ended(data: Pick<TailRequest, 'kind' | 'tool' | 'id'>, transcript: string[], reason: string): DraftCard;
  /** One job log entry as a transcript line. */
  formatEntry(entry: TailLogEntry): string;
}

/** Starts and stops live log tails (the queue implements it). */
export interface TailService {
  /** Whether a tail of this resource already runs in the conversation. */
  running(kind: TailKind, tool: string, id: string, conversationId: string): Promise<boolean>;
  /** Starts a tail; resolves false when one already runs there. */
  start(request: TailRequest): Promise<boolean>;
  /** Asks a running tail to stop (it posts its transcript); false when none runs. */
  stop(kind: TailKind, tool: string, id: string, conversationId: string): Promise<boolean>;
  /** The tails running in a conversation (what `/tail stop` without arguments stops). */
  inConversation(conversationId: string): Promise<Pick<TailRequest, 'kind' | 'tool' | 'id'>[]>;
}
