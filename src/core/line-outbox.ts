/**
 * The outbound queue of a chat link held by one process (one long-lived connection): any process queues
 * lines for a target, the process holding the link delivers them in order at the platform's pace.
 * Queuing never waits for the link, so a slow or broken link delays no command; lines queued while it
 * is down are delivered once it is back.
 */

/** One queued message: lines for one target (a channel or a person). */
export interface OutboundMessage {
  /** The platform's target (`#channel`, a nick). */
  target: string;
  /** The conversation it belongs to (a gone conversation's lines are dropped). */
  conversationId: string;
  /** Lines, already fitted to the platform's limits, sent in order. */
  lines: string[];
}

/** A running consumer of an outbox. */
export interface LineConsumer {
  close(): Promise<void>;
}

/** One platform's outbound queue. */
export interface LineOutbox {
  /** Queues `message` once per `id`: a second call with the same id adds nothing. */
  enqueue(id: string, message: OutboundMessage): Promise<void>;
  /**
   * Delivers queued messages one at a time, in order, through `send` (which waits for the link and
   * the flood control). A `send` that throws is tried again later; `id` lets it record what it sent.
   */
  consume(send: (message: OutboundMessage, id: string) => Promise<void>): LineConsumer;
  /** Messages queued and not yet delivered. */
  waiting(): Promise<number>;
}
