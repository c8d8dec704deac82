/**
 * The change guard: a deploy or destructive command (`guarded: true` on its definition) is refused
 * while its tool is locked (`/tool lock`) or inside one of its weekly freeze windows (`/tool freeze`).
 * The refusal comes with the access check, before any confirmation is asked, and again when a
 * Confirm button is pressed: it names who locked the tool, since when, why, until when and how to
 * unlock it (or which window holds and when it ends).
 */

import { type Translator, translator } from '../i18n/translate';
import type { ChatUser, PermissionLevel } from './command';
import { type DeckhandError, UsageError } from './errors';
import { type FreezeWindow, insideWindow, windowEnd, windowText } from './freeze-window';
import type { Policy, PolicyCheckOptions } from './policy';
import { absoluteText } from './times';

/** A lock on a tool: who holds it, since when, why, and when it expires. */
export interface ToolLock {
  tool: string;
  /** `platform:workspace:id` of the holder. */
  holder: string;
  /** The holder's display name. */
  name: string;
  /** The conversation it was taken in. */
  conversationId: string;
  reason?: string;
  /** Unix ms. */
  since: number;
  /** Unix ms: the lock is gone after this. */
  until: number;
}

/** A weekly freeze window of a tool, as stored. */
export interface ToolFreeze extends FreezeWindow {
  /** Short id, for `/tool unfreeze`. */
  id: string;
  /** Display name of who added it. */
  by: string;
  /** Unix ms. */
  addedAt: number;
}

/** What taking a lock did. */
export type LockResult =
  /** Taken (or renewed by its own holder); `previous` is the lock it replaced with `take`. */
  | { kind: 'taken'; lock: ToolLock; previous?: ToolLock | undefined }
  /** Someone else holds it, and `take` was not asked. */
  | { kind: 'held'; lock: ToolLock };

/** Where locks and freezes are kept (Redis: `src/store/tool-guards.ts`). */
export interface ChangeGuardStore {
  /** Takes the lock atomically: free, expired, the holder's own, or `take` → taken; else held. */
  lock(lock: ToolLock, options: { take: boolean }): Promise<LockResult>;
  /** Removes the lock; resolves with the lock removed, if there was one. */
  unlock(tool: string): Promise<ToolLock | undefined>;
  /** The lock in force, if any. */
  currentLock(tool: string, now?: number): Promise<ToolLock | undefined>;
  /** Adds a freeze window; resolves with its id. */
  addFreeze(tool: string, freeze: Omit<ToolFreeze, 'id'>): Promise<string>;
  /** Removes a freeze window; false when there is none with that id. */
  removeFreeze(tool: string, id: string): Promise<boolean>;
  /** The tool's freeze windows, oldest first. */
  freezes(tool: string): Promise<ToolFreeze[]>;
  /** The lock in force and the freeze windows, read together (one request). */
  state(tool: string, now?: number): Promise<GuardState>;
}

/** What holds a tool's changes: the lock in force, if any, and its freeze windows. */
export interface GuardState {
  lock: ToolLock | undefined;
  freezes: ToolFreeze[];
}

/**
 * A guarded command refused because of a lock or a freeze: shown like a refused input (a warning,
 * to the person only), audited as `locked`.
 */
export class ChangeLockedError extends UsageError {
  override readonly code: string = 'locked';

  /**
   * @param reason what holds the change (the lock's or the freeze's sentence) in a reader's words,
   * without the refusal's ending: what an `--override` asks approval for.
   */
  constructor(
    message: string,
    hint: string,
    words?: DeckhandError['words'],
    readonly reason?: (say: Translator) => string,
  ) {
    super(message, { hint, words });
  }

  /**
   * A refusal in the catalog's words (English for logs and the audit trail): what holds the change,
   * then that `/command` was not run.
   */
  static said(
    command: string,
    reason: (say: Translator) => string,
    hint: (say: Translator) => string,
  ): ChangeLockedError {
    const words = (say: Translator) => ({
      message: `${reason(say)} ${say.t('guard-not-run', command)}`,
      hint: hint(say),
    });
    const english = words(translator('en'));
    return new ChangeLockedError(english.message, english.hint, words, reason);
  }
}

/** `Sat 28 Nov 2026, 07:00 UTC`: times in refusals (which have no reader zone) in UTC. */
function when(at: number, say: Translator, zone?: string): string {
  return absoluteText({ at }, zone, say.language);
}

/** A hint, and how to run an overridable command anyway. */
function withOverride(hint: string, say: Translator, tool: string, overridable: boolean): string {
  return overridable ? `${hint} ${say.t('guard-override-hint', tool)}` : hint;
}

/** The refusal for a lock in force. */
export function lockedError(lock: ToolLock, command: string, overridable = false): ChangeLockedError {
  return ChangeLockedError.said(
    command,
    (say) =>
      lock.reason
        ? say.t(
            'guard-locked-reason',
            lock.tool,
            lock.name,
            when(lock.since, say),
            lock.reason,
            when(lock.until, say),
          )
        : say.t('guard-locked', lock.tool, lock.name, when(lock.since, say), when(lock.until, say)),
    (say) => withOverride(say.t('guard-locked-hint', lock.tool), say, lock.tool, overridable),
  );
}

/** The refusal for a freeze window that holds now. */
export function frozenError(
  freeze: ToolFreeze,
  tool: string,
  command: string,
  now: number,
  overridable = false,
): ChangeLockedError {
  return ChangeLockedError.said(
    command,
    (say) =>
      say.t(
        'guard-frozen',
        tool,
        windowText(freeze),
        freeze.zone,
        freeze.by,
        when(windowEnd(freeze, now), say, freeze.zone),
      ),
    (say) => withOverride(say.t('guard-frozen-hint', tool, freeze.id), say, tool, overridable),
  );
}

/** The refusal for `command` on `tool` at `now`, if a lock or a freeze holds. */
export async function guardRefusal(
  store: ChangeGuardStore,
  tool: string,
  command: string,
  now = Date.now(),
  overridable = false,
): Promise<ChangeLockedError | undefined> {
  const { lock, freezes } = await store.state(tool, now);
  if (lock) return lockedError(lock, command, overridable);
  const frozen = freezes.find((freeze) => insideWindow(freeze, now));
  return frozen ? frozenError(frozen, tool, command, now, overridable) : undefined;
}

/** What {@link GuardedPolicy} needs. */
export interface GuardedPolicyDeps {
  /** The access rules. */
  inner: Policy;
  store: ChangeGuardStore;
  /** True when the named command is `guarded` (read from its definition in the registry). */
  isGuarded(command: string): boolean;
  /** True when the named command takes `--override` (its refusal says so). */
  isOverridable?(command: string): boolean;
  now?: () => number;
}

/**
 * The access policy with the change guard after it: the command runner checks it before it asks for a
 * confirmation and again at Confirm, so a guarded command during a lock or a freeze is refused at
 * both points, and only once the user is allowed at all (a stranger learns nothing of the lock).
 */
export class GuardedPolicy implements Policy {
  constructor(private readonly deps: GuardedPolicyDeps) {}

  async check(
    user: ChatUser,
    level: PermissionLevel,
    tool: string | undefined,
    command?: string,
    options?: PolicyCheckOptions,
  ): Promise<void> {
    await this.deps.inner.check(user, level, tool, command);
    if (!tool || !command || options?.overridden || !this.deps.isGuarded(command)) return;
    const now = (this.deps.now ?? Date.now)();
    const overridable = this.deps.isOverridable?.(command) ?? false;
    const refusal = await guardRefusal(this.deps.store, tool, command, now, overridable);
    if (refusal) throw refusal;
  }
}
