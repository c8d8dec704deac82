import type { Logger } from 'pino';
import type { MessageHandle } from '../core/command';
import { NotFoundError, UpstreamError } from '../core/errors';
import { pollDelayMs } from '../core/poll-schedule';
import type { DraftCard } from '../core/reply';
import type { WatchKind, WatchKindName, WatchRequest, WatchService } from '../core/watch';

/** Options of the in-process watcher. */
export interface InProcessWatcherOptions<S> {
  kinds: readonly WatchKind<S>[];
  services: S;
  /** Edits a card (the dispatcher's `update`, which stores the card's buttons). */
  updateCard(handle: MessageHandle, card: DraftCard): Promise<void>;
  logger: Logger;
  /** First poll delay; grows ×1.5 to `maxPollMs`. */
  basePollMs: number;
  maxPollMs: number;
  /** Stop following after this long and say so on the card. */
  maxAgeMs: number;
}

/**
 * Follows resources with timers inside this process. It is the foundation's stand-in for the durable
 * BullMQ watchers: same {@link WatchService} interface, same {@link WatchKind}s, so replacing it changes
 * only which class `createApp` builds. Work does not survive a restart here.
 */
export class InProcessWatcher<S> implements WatchService {
  private readonly active = new Map<string, NodeJS.Timeout | undefined>();
  private readonly kinds: Map<WatchKindName, WatchKind<S>>;
  private stopped = false;

  constructor(private readonly options: InProcessWatcherOptions<S>) {
    this.kinds = new Map(options.kinds.map((k) => [k.name, k]));
  }

  async start(request: WatchRequest): Promise<void> {
    const key = `${request.kind}|${request.tool}|${request.id}|${request.handle.conversationId}|${JSON.stringify(request.handle.ref)}`;
    if (this.active.has(key) || this.stopped) return;
    const kind = this.kinds.get(request.kind);
    if (!kind) throw new Error(`no watch kind ${request.kind}`);
    this.active.set(key, undefined);
    const startedAt = Date.now();
    let attempt = 0;
    let lastCard: DraftCard | undefined;
    let lastJson = '';

    const finish = () => {
      const timer = this.active.get(key);
      if (timer) clearTimeout(timer);
      this.active.delete(key);
    };
    const tick = async () => {
      if (this.stopped) return finish();
      try {
        const observation = await kind.observe(this.options.services, request.tool, request.id);
        const json = JSON.stringify(observation.card);
        if (json !== lastJson) {
          lastJson = json;
          lastCard = observation.card;
          await this.options.updateCard(request.handle, observation.card);
        }
        if (observation.terminal) return finish();
      } catch (error) {
        if (error instanceof NotFoundError || (error instanceof UpstreamError && error.status === 404)) {
          await this.safeUpdate(
            request.handle,
            kind.gaveUp(request.tool, request.id, lastCard, 'it no longer exists on the platform'),
          );
          return finish();
        }
        this.options.logger.warn({ err: error, watch: key }, 'watch poll failed; backing off');
      }
      if (Date.now() - startedAt > this.options.maxAgeMs) {
        const minutes = Math.round(this.options.maxAgeMs / 60_000);
        await this.safeUpdate(
          request.handle,
          kind.gaveUp(request.tool, request.id, lastCard, `it was still running after ${minutes} min`),
        );
        return finish();
      }
      const delay = pollDelayMs(attempt++, this.options.basePollMs, this.options.maxPollMs);
      const timer = setTimeout(() => void tick(), delay);
      this.active.set(key, timer);
    };
    const first = setTimeout(
      () => void tick(),
      pollDelayMs(0, this.options.basePollMs, this.options.maxPollMs),
    );
    this.active.set(key, first);
  }

  async activeCount(): Promise<number> {
    return this.active.size;
  }

  /** Stops every watch (process shutdown). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.active.values()) if (timer) clearTimeout(timer);
    this.active.clear();
  }

  private async safeUpdate(handle: MessageHandle, card: DraftCard): Promise<void> {
    try {
      await this.options.updateCard(handle, card);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not update a watched card');
    }
  }
}
