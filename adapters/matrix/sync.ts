/**
 * The sync loop: long-polls `GET /_matrix/client/v3/sync` through matrix-js-sdk's HTTP layer (its
 * auth, error types and rate-limit data) and hands invitations and room events on, each room's
 * events in order and rooms side by side. The `next_batch` token is kept in Redis, so a restarted
 * process goes on where the last one stopped (events that arrived meanwhile still run, once: their
 * ids are claimed). A fresh start with no token skips the rooms' history and only answers
 * invitations. Failures back off (a 429's `retry_after_ms`, else 1 s doubling to 30 s).
 *
 * The SDK's own sync (`startClient`) is not used: it keeps an in-memory model of every room (state,
 * timelines, receipts, push rules) that a bot answering commands does not read, and its position
 * lives in that process's store; this loop keeps only the position, in Redis, shared by restarts.
 */
import { type IRequestOpts, type MatrixClient, MatrixError, Method } from 'matrix-js-sdk';
import type { Logger } from 'pino';
import type { KeyValueStore } from '../../src/core/host';
import { retryAfterOf } from './client';
import type { SyncedEvent } from './events';
import { type Invitation, invitationOf } from './rooms';

/** Only what the bot reads: room timelines and invitations, no presence or account data. */
const FILTER = JSON.stringify({
  presence: { types: [] },
  account_data: { types: [] },
  room: {
    timeline: { limit: 50 },
    ephemeral: { types: [] },
    account_data: { types: [] },
    state: { lazy_load_members: true },
  },
});

interface SyncResponse {
  next_batch: string;
  rooms?: {
    join?: Record<string, { timeline?: { events?: SyncedEvent[] }; state?: { events?: SyncedEvent[] } }>;
    invite?: Record<string, { invite_state?: { events?: Record<string, unknown>[] } }>;
  };
}

/** What the loop hands on. */
export interface SyncHandlers {
  invite(invitation: Invitation): Promise<void>;
  event(roomId: string, event: SyncedEvent): Promise<void>;
}

/** See the module comment. */
export class SyncLoop {
  private stopped = false;
  private abort = new AbortController();
  private readonly lanes = new Map<string, Promise<void>>();
  private loop: Promise<void> | undefined;
  /** True after a sync answered and until one fails. */
  connected = false;

  constructor(
    private readonly client: MatrixClient,
    private readonly botUserId: string,
    private readonly store: KeyValueStore,
    private readonly handlers: SyncHandlers,
    private readonly logger: Logger,
    private readonly timeoutMs = 30_000,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.loop;
    await Promise.allSettled([...this.lanes.values()]);
  }

  /** Runs `work` after the earlier work of the same room (lane). */
  private inLane(lane: string, work: () => Promise<void>): void {
    const previous = this.lanes.get(lane) ?? Promise.resolve();
    const next = previous.then(work).catch((error: unknown) => {
      this.logger.error({ err: error, room: lane }, 'matrix event handling failed');
    });
    this.lanes.set(lane, next);
    void next.then(() => {
      if (this.lanes.get(lane) === next) this.lanes.delete(lane);
    });
  }

  private async run(): Promise<void> {
    let since = await this.store.get('since');
    let failures = 0;
    while (!this.stopped) {
      try {
        const query: Record<string, string> = { filter: FILTER, timeout: String(since ? this.timeoutMs : 0) };
        if (since) query.since = since;
        const response = await this.client.http.authedRequest<SyncResponse>(
          Method.Get,
          '/sync',
          query,
          undefined,
          {
            localTimeoutMs: this.timeoutMs + 15_000,
            abortSignal: this.abort.signal,
          } as IRequestOpts,
        );
        this.dispatch(response, since === undefined);
        since = response.next_batch;
        await this.store.set('since', since);
        this.connected = true;
        failures = 0;
      } catch (error) {
        if (this.stopped) return;
        this.connected = false;
        failures += 1;
        const wait = retryAfterOf(error) ?? Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5));
        if (error instanceof MatrixError && error.httpStatus === 401) {
          this.logger.error(
            { errcode: error.errcode, waitMs: wait },
            'matrix: the homeserver refused the access token (logged out?): set MATRIX_ACCESS_TOKEN to a valid token of the bot account',
          );
        } else {
          this.logger.warn({ err: error, waitMs: wait }, 'matrix sync failed; trying again');
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  private dispatch(response: SyncResponse, first: boolean): void {
    for (const [roomId, room] of Object.entries(response.rooms?.invite ?? {})) {
      const invitation = invitationOf(roomId, this.botUserId, room.invite_state?.events ?? []);
      this.inLane(roomId, () => this.handlers.invite(invitation));
    }
    for (const [roomId, room] of Object.entries(response.rooms?.join ?? {})) {
      const events = [...(room.state?.events ?? []), ...(room.timeline?.events ?? [])];
      for (const event of events) {
        // A fresh start does not run the history it is shown.
        if (first && event.type !== 'm.room.encryption' && event.type !== 'm.room.tombstone') continue;
        this.inLane(roomId, () => this.handlers.event(roomId, event));
      }
    }
  }
}
