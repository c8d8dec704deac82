import type { MessageHandle } from './command';
import type { DraftCard } from './reply';

/** Kinds of long-running resources whose status cards Deckhand keeps up to date. */
export type WatchKindName = 'deployment' | 'build' | 'job';

/** One observation of a watched resource. */
export interface WatchObservation {
  /** The resource's state in the service's own words (`running`, `BUILD_SUCCESS`, …). */
  state: string;
  /** True when the resource reached a state it will not leave. */
  terminal: boolean;
  /** The status card for this state. */
  card: DraftCard;
}

/** How to observe one kind of resource; declared by the commands that start watches. */
export interface WatchKind<S = unknown> {
  name: WatchKindName;
  /** Reads the resource now. A `NotFoundError`/404 ends the watch with a note on the card. */
  observe(services: S, tool: string, id: string): Promise<WatchObservation>;
  /** The card shown when Deckhand stops following before the resource finished. */
  gaveUp(tool: string, id: string, lastCard: DraftCard | undefined, reason: string): DraftCard;
}

/** A request to follow a resource and keep its card up to date. */
export interface WatchRequest {
  kind: WatchKindName;
  tool: string;
  id: string;
  /** The card to keep updated. */
  handle: MessageHandle;
}

/**
 * Follows resources to a terminal state. Implemented in-process for the foundation, and by durable
 * BullMQ watchers later; commands only see this interface, so one replaces the other.
 */
export interface WatchService {
  /** Starts following; a second request for the same resource and card is ignored. */
  start(request: WatchRequest): Promise<void>;
  /** Number of watches still running (the shell's `--wait` waits for zero). */
  activeCount(): Promise<number>;
}
