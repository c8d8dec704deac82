/**
 * `getUpdates` with Telegram's long-polling semantics: an `offset` confirms (drops) every update
 * below it; with nothing to deliver and `timeout > 0` the request is held until an update arrives,
 * the timeout passes or the client hangs up; `limit` caps a batch; a second poller ends the first
 * with 409 Conflict, as the real Bot API does.
 */
import type { ServerResponse } from 'node:http';
import type { Update } from 'grammy/types';
import type { RecordedCall } from './telegram';
import { BotApiError } from './telegram-rules';

type Answer = (
  res: ServerResponse,
  call: RecordedCall,
  outcome: { result: unknown } | BotApiError,
) => Promise<void>;

interface Waiter {
  offset: number;
  limit: number;
  res: ServerResponse;
  call: RecordedCall;
  timer: NodeJS.Timeout;
}

/** The update queue of one bot and its (at most one) held poll. */
export class LongPoll {
  private readonly queue: Update[] = [];
  private waiter: Waiter | undefined;

  constructor(private readonly answer: Answer) {}

  /** Updates not yet confirmed (Telegram's `pending_update_count`, getWebhookInfo). */
  get pending(): number {
    return this.queue.length;
  }

  /** Queues updates; a held poll gets them at once. */
  push(...updates: Update[]): void {
    this.queue.push(...updates);
    this.flush();
  }

  /** Answers (or holds) one getUpdates request. */
  request(params: Record<string, unknown>, res: ServerResponse, call: RecordedCall): void {
    const offset = typeof params.offset === 'number' ? params.offset : 0;
    const limit = Math.min(100, Math.max(1, typeof params.limit === 'number' ? params.limit : 100));
    const timeout = typeof params.timeout === 'number' ? params.timeout : 0;
    if (offset > 0) this.confirm(offset);
    const previous = this.waiter;
    if (previous) {
      clearTimeout(previous.timer);
      this.waiter = undefined;
      void this.answer(
        previous.res,
        previous.call,
        new BotApiError(
          409,
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
        ),
      );
    }
    const ready = this.deliverable(offset, limit);
    if (ready.length > 0 || timeout <= 0) {
      void this.answer(res, call, { result: ready });
      return;
    }
    const timer = setTimeout(() => this.release([]), timeout * 1000);
    this.waiter = { offset, limit, res, call, timer };
    res.on('close', () => {
      if (this.waiter?.res === res) {
        clearTimeout(this.waiter.timer);
        this.waiter = undefined;
      }
    });
  }

  /** Drops every waiting update (`drop_pending_updates` of setWebhook / deleteWebhook). */
  drop(): void {
    this.queue.length = 0;
  }

  /** Drops updates confirmed by an offset. */
  private confirm(offset: number): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if ((this.queue[i] as Update).update_id < offset) this.queue.splice(i, 1);
    }
  }

  private deliverable(offset: number, limit: number): Update[] {
    return this.queue.filter((u) => u.update_id >= offset).slice(0, limit);
  }

  private flush(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    const ready = this.deliverable(waiter.offset, waiter.limit);
    if (ready.length > 0) this.release(ready);
  }

  private release(updates: Update[]): void {
    const waiter = this.waiter;
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.waiter = undefined;
    void this.answer(waiter.res, waiter.call, { result: updates });
  }

  /** Ends a held poll's timer (server shutdown). */
  close(): void {
    if (this.waiter) clearTimeout(this.waiter.timer);
    this.waiter = undefined;
  }
}
