/**
 * Card edits within a conversation's edit budget (./send-budget.ts), coalesced: while an edit of a
 * message waits for the budget, a newer state of the same message replaces it (the latest state wins),
 * so a card edited faster than the platform allows shows its newest state as soon as the budget lets
 * it, instead of queueing every intermediate state behind the others. Messages of one budget scope
 * take turns in the order they began waiting, one edit in flight per scope at a time.
 *
 * The pacing is per process: each worker keeps the budget for the edits it makes.
 */
import type { SendBudget } from './send-budget';

/** The budget of a conversation. */
export type BudgetOf = (conversationId: string) => SendBudget;

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

interface Pending {
  send: () => Promise<void>;
  waiters: Waiter[];
}

interface Scope {
  /** When the most recent edits finished (oldest first), at most the rate's count of them. */
  done: number[];
  busy: boolean;
  timer?: NodeJS.Timeout;
  /** The timer only forgets the idle scope (a new edit need not wait for it). */
  idle?: boolean;
  /** Waiting edits by message key, in the order they began waiting. */
  queue: Map<string, Pending>;
  budget: SendBudget;
}

/** Paces and coalesces edits by their conversations' budgets. */
export class EditPacer {
  private readonly scopes = new Map<string, Scope>();

  constructor(
    private readonly budgetOf: BudgetOf,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Makes the edit `send` of message `key` in `conversationId` when the budget allows; an edit of the
   * same message still waiting is dropped for this one. Resolves once this edit, or a newer one of the
   * same message that replaced it, was made; rejects with the error of that edit.
   */
  edit(conversationId: string, key: string, send: () => Promise<void>): Promise<void> {
    const budget = this.budgetOf(conversationId);
    let scope = this.scopes.get(budget.scope);
    if (!scope) {
      scope = { done: [], busy: false, queue: new Map(), budget };
      this.scopes.set(budget.scope, scope);
    }
    const current = scope;
    return new Promise<void>((resolve, reject) => {
      const waiting = current.queue.get(key);
      if (waiting) {
        waiting.send = send;
        waiting.waiters.push({ resolve, reject });
      } else {
        current.queue.set(key, { send, waiters: [{ resolve, reject }] });
      }
      this.pump(budget.scope, current);
    });
  }

  /** Edits waiting or in flight, over every scope (for tests and metrics). */
  pending(): number {
    let n = 0;
    for (const scope of this.scopes.values()) n += scope.queue.size + (scope.busy ? 1 : 0);
    return n;
  }

  /** The time the next edit of `scope` may start. */
  private nextAt(scope: Scope): number {
    const { count, perMs, minGapMs } = scope.budget.edits;
    let at = 0;
    // Counted from when earlier edits finished: the platform saw each of them no later than that.
    if (scope.done.length >= count) at = (scope.done[scope.done.length - count] as number) + perMs;
    const last = scope.done.at(-1);
    if (minGapMs !== undefined && last !== undefined) at = Math.max(at, last + minGapMs);
    return at;
  }

  private pump(name: string, scope: Scope): void {
    if (scope.timer && scope.idle) {
      clearTimeout(scope.timer);
      delete scope.timer;
    }
    if (scope.busy || scope.timer) return;
    const now = this.now();
    const first = scope.queue.entries().next();
    if (first.done) {
      const last = scope.done.at(-1) ?? 0;
      if (now >= last + scope.budget.edits.perMs) this.scopes.delete(name);
      else this.later(name, scope, last + scope.budget.edits.perMs - now, true);
      return;
    }
    const at = this.nextAt(scope);
    if (at > now) {
      this.later(name, scope, at - now);
      return;
    }
    const [key, pending] = first.value;
    scope.queue.delete(key);
    scope.busy = true;
    const settle = (error?: { error: unknown }) => {
      scope.done.push(this.now());
      if (scope.done.length > scope.budget.edits.count) scope.done.shift();
      scope.busy = false;
      for (const waiter of pending.waiters) {
        if (error) waiter.reject(error.error);
        else waiter.resolve();
      }
      this.pump(name, scope);
    };
    pending.send().then(
      () => settle(),
      (error: unknown) => settle({ error }),
    );
  }

  private later(name: string, scope: Scope, ms: number, idle = false): void {
    scope.idle = idle;
    scope.timer = setTimeout(() => {
      delete scope.timer;
      scope.idle = false;
      this.pump(name, scope);
    }, ms);
    scope.timer.unref();
  }
}
