import type { Translator } from '../i18n/translate';
import type { MessageHandle } from './command';
import type { Starter } from './personal-notify';
import type { DraftCard } from './reply';

/**
 * A kind of long-running resource whose status cards Deckhand keeps up to date, as the feature that
 * declares its {@link WatchKind} names it.
 */
export type WatchKindName = string;

/** How a state ended, for subscription filters (`--failures-only`, `--changes-only`). */
export type Outcome = 'success' | 'failure' | 'cancelled';

/**
 * What a failure announcement shows besides its one line of detail, read when the failure was seen:
 * the resource's last log lines (untrusted text, shown in a code block), its exit code and restarts.
 */
export interface FailureFacts {
  /** The last lines the resource printed, oldest first. */
  lines?: string[];
  /** The exit code the platform reports. */
  exitCode?: number;
  /** How often the platform restarted it. */
  restarts?: number;
  /** A job's type (`continuous`, `scheduled`, `one-off`): one-off jobs cannot be restarted. */
  jobType?: string;
  /** A failed deployment's first build (its log is the one the lines come from). */
  build?: string;
}

/**
 * Whether a resource's failures can be claimed ("I'm on it"), and how: the scope a claim covers (the
 * resource itself, or all of the tool's resources of its kind) and whether every failure counts (a
 * resource that fails, recovers and fails again) or only its final state. Declared by the feature
 * that observes the resource.
 */
export interface Claimable {
  /** What a claim covers: the tool, and the resource's name when it covers one resource (else all of its kind). */
  scope: { tool: string; job?: string | undefined };
  /** True when each failure and recovery counts, not only the final state. */
  everyOutcome: boolean;
}

/** One observation of a watched resource. */
export interface WatchObservation {
  /** The resource's state in the service's own words (`running`, `BUILD_SUCCESS`, …). */
  state: string;
  /** True when the resource reached a state it will not leave. */
  terminal: boolean;
  /** How the state counts: set for finished states (and for job states like failed/running). */
  outcome?: Outcome | undefined;
  /** One line of detail for announcements (`web failed`). */
  detail?: string;
  /** For a failure: its log lines, exit code and restarts. */
  failure?: FailureFacts | undefined;
  /** Set when failures of the resource can be claimed. */
  claim?: Claimable | undefined;
  /** The status card for this state. */
  card: DraftCard;
}

/** One state change of a watched resource. */
export interface WatchEvent {
  tool: string;
  kind: WatchKindName;
  id: string;
  /** The previous state (`unknown` when first seen). */
  from: string;
  to: string;
  /** Unix ms when Deckhand saw the change. */
  at: number;
  detail: string;
  outcome?: Outcome | undefined;
  terminal: boolean;
  /** Tells apart repeats of the same transition (a job that fails, recovers and fails again). */
  serial?: number;
  /** For a failure: its log lines, exit code and restarts (shown on the announcement). */
  failure?: FailureFacts | undefined;
  /** Set when failures of the resource can be claimed. */
  claim?: Claimable | undefined;
  /** On the end of work started from chat: who started it (they may get a direct message). */
  starter?: Starter | undefined;
}

/** How to observe one kind of resource; declared by the commands that start watches. */
export interface WatchKind<S = unknown> {
  name: WatchKindName;
  /**
   * Reads the resource now; its card is written with `say` (the language of the conversation the
   * watch was started in). A `NotFoundError`/404 ends the watch with a note on the card.
   */
  observe(services: S, tool: string, id: string, say?: Translator): Promise<WatchObservation>;
  /** The card shown when Deckhand stops following before the resource finished. */
  gaveUp(tool: string, id: string, lastCard: DraftCard | undefined, reason: string): DraftCard;
  /** The announcement posted to subscribed conversations for a state change, in the conversation's language. */
  announce(event: WatchEvent, say?: Translator): DraftCard;
}

/** A request to follow a resource and keep its card up to date. */
export interface WatchRequest {
  kind: WatchKindName;
  tool: string;
  id: string;
  /** The card to keep updated (none for resources discovered outside the bot). */
  handle?: MessageHandle;
  /** Who started the work from chat (none for resources discovered outside the bot). */
  starter?: Starter;
  /** The language the card is written in (`en`, `de`, …); English when absent. */
  language?: string;
}

/**
 * Follows resources to a terminal state. Implemented in-process for the foundation, and by durable
 * BullMQ watchers later; commands only see this interface, so one replaces the other.
 */
export interface WatchService {
  /** Starts following; a second request for the same resource only adds its card. */
  start(request: WatchRequest): Promise<void>;
  /** Watches and the work they cause (announcements, tails) still running; the shell's `--wait` waits for zero. */
  activeCount(): Promise<number>;
}
