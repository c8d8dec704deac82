/**
 * A failure someone can claim ("I'm on it"). A failure of a tool's job, or of its deployments, is
 * announced on a card; a maintainer who claims it is named on every copy of that card, and repeats
 * of the same failure are not announced while the claim holds. The claim ends when the resource
 * recovers (the cards are edited to say so, and the recovery is announced once) or when it is
 * released; its holder can hand it off. The store keeps one record per failing scope, and every
 * change to it is one atomic step, so of two people pressing at once exactly one holds the claim.
 */
import type { Logger } from 'pino';
import type { CardPublishing } from './card-publisher';
import type { MessageHandle } from './command';
import type { DraftCard } from './reply';
import type { WatchEvent } from './watch';

/** What a claim covers: one resource of a tool (named), or, unnamed, all of the tool's resources of its kind. */
export interface FailureScope {
  tool: string;
  job?: string | undefined;
}

/** Who is on a failure, since when, and to whom they hand it off. */
export interface FailureClaim {
  /** `platform:workspace:id` of the holder (see `userKeyOf`). */
  holder: string;
  /** The holder's display name. */
  name: string;
  /** Unix ms the claim was taken. */
  since: number;
  /** The name of whoever the holder hands it off to; anyone else who presses I'm on it takes it. */
  offeredTo?: string;
}

/** A failing scope as stored: the failure announced, its card, its copies, and the claim. */
export interface FailureState {
  scope: FailureScope;
  /** The failure event that was announced. */
  event: WatchEvent;
  /** The announcement card as posted (without its delivery key). */
  card?: DraftCard;
  claim?: FailureClaim;
  /** Every posted copy of the announcement. */
  cards: MessageHandle[];
}

/** What the fan-out does with an event of a scope: announce it, keep quiet, or await a recovery. */
export type GateVerdict = 'announce' | 'silenced' | 'recovering';

/** The answer to an "I'm on it". */
export type ClaimResult =
  | { kind: 'taken'; state: FailureState; previous?: FailureClaim | undefined }
  | { kind: 'held'; claim: FailureClaim }
  | { kind: 'none' };

/** The answer to a hand-off. */
export type HandoffResult =
  | { kind: 'offered'; state: FailureState }
  | { kind: 'not-holder'; claim: FailureClaim }
  | { kind: 'none' };

/** Where failures and their claims are kept (Redis: `src/store/failure-claims.ts`). */
export interface FailureClaimStore {
  /**
   * Decides an event of a claimable scope: while claimed, a failure is silenced and a success is
   * held back as a possible recovery; unclaimed, a failure starts a new record and is announced.
   * A retried event gets the same answer.
   */
  gate(event: WatchEvent): Promise<GateVerdict>;
  /** Records a posted copy of a failure's announcement (ignored when the record moved on). */
  posted(event: WatchEvent, handle: MessageHandle, card: DraftCard): Promise<void>;
  /** The scope's record, if it has one. */
  state(scope: FailureScope): Promise<FailureState | undefined>;
  /** Takes the claim: free, the holder's own, or offered to someone else. */
  claim(scope: FailureScope, claim: FailureClaim): Promise<ClaimResult>;
  /** The tool's failures that someone is on now (each scope read once), in order of scope. */
  claimedOn(tool: string): Promise<FailureState[]>;
  /** Offers the holder's claim to `to` (a name); only the holder can. */
  handoff(scope: FailureScope, holder: string, to: string): Promise<HandoffResult>;
  /** Ends the claim; the failure is announced again when it repeats. Undefined when unclaimed. */
  release(scope: FailureScope): Promise<{ state: FailureState; released: FailureClaim } | undefined>;
  /** Whether `event` is still the latest news of its claimed scope (a recovery being confirmed). */
  awaits(event: WatchEvent): Promise<boolean>;
  /** Ends the record when `event` is still the latest news of its scope (a recovery that held). */
  recover(event: WatchEvent): Promise<FailureState | undefined>;
}

/** The store, and the redrawing of a failure's cards after its claim changed. */
export interface FailureClaims extends FailureClaimStore {
  /** Edits every posted copy of the scope's failure card to show its claim as it is now (on the queue). */
  redraw(scope: FailureScope): Promise<void>;
}

/** The claimable scope of an event, as the feature that observed it declared; none for others. */
export function scopeOf(event: WatchEvent): FailureScope | undefined {
  const scope = event.claim?.scope;
  return scope ? { tool: scope.tool, ...(scope.job ? { job: scope.job } : {}) } : undefined;
}

/** Whether the fan-out asks the store about an event: a claimable one with an outcome that counts. */
export function gated(event: WatchEvent): boolean {
  if (!event.claim || !event.outcome) return false;
  return event.claim.everyOutcome || event.terminal;
}

/** The scope as button arguments (`{tool, job?}`). */
export function scopeArgs(scope: FailureScope): Record<string, string> {
  return { tool: scope.tool, ...(scope.job ? { job: scope.job } : {}) };
}

/** Edits every posted copy of a failure's card; a copy that cannot be edited is logged and skipped. */
export async function editFailureCards(
  deps: { cards: Pick<CardPublishing, 'update'>; logger: Logger },
  handles: readonly MessageHandle[],
  card: DraftCard,
): Promise<void> {
  for (const handle of handles) {
    try {
      await deps.cards.update(handle, card);
    } catch (error) {
      deps.logger.warn(
        { err: error, conversation: handle.conversationId },
        'could not update a failure card',
      );
    }
  }
}
