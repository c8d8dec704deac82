/**
 * Media clients per chat user. The API key comes from a {@link MediaKeySource}: the bot-wide
 * `MEDIA_API_KEY` today; a per-user vault (`/link media`) can plug in later without touching the
 * commands, which only ever call `services.media.forUser(user)`.
 */
import { Agent } from 'undici';
import type { ChatUser } from '../../core/command';
import { PermissionDenied } from '../../core/errors';
import { HttpClient } from '../http';
import { type MediaClient as Client, MediaClient, type MediaClientOptions } from './client';
import { envelopeStatus, MEDIA_SERVICE, readMediaError } from './envelope';
import { MediaSession, type MediaSessionOptions } from './session';

/** A key for one user, and what to tell them when the host refuses it. */
export interface MediaKey {
  key: string;
  /** Shown with "the media host refused the API key": a message key, or English text. */
  hint: string;
}

/** Where API keys come from. */
export interface MediaKeySource {
  /** The key `user` acts with, or undefined when there is none. */
  keyFor(user: ChatUser): Promise<MediaKey | undefined>;
}

/** One key for everybody (`MEDIA_API_KEY`). */
export class BotWideKeySource implements MediaKeySource {
  constructor(
    private readonly key: string | undefined,
    private readonly hint: string = 'media-api-key-hint-bot-wide',
  ) {}

  async keyFor(): Promise<MediaKey | undefined> {
    return this.key ? { key: this.key, hint: this.hint } : undefined;
  }
}

/** Options of {@link MediaService}. */
export interface MediaServiceOptions extends MediaClientOptions, MediaSessionOptions {
  /** API base, e.g. `https://doodapi.com` (paths are `/api/…`). */
  apiUrl: string;
  keys: MediaKeySource;
  /** Timeout of one API call in ms. Default 15 000. */
  timeoutMs?: number;
  /**
   * Retries of a call the host rate-limits (HTTP 429 or `"status":"429"` in the body), by the HTTP
   * layer (which retries 5xx and connection failures twice). Default 4.
   */
  rateLimitRetries?: number;
  /** First wait before a retry in ms (doubles each time). Default 200 (the docs ask ≥ 100). */
  rateLimitDelayMs?: number;
}

/** Hands out {@link MediaClient}s per chat user; one per process. */
export class MediaService {
  private readonly http: HttpClient;
  private readonly uploadAgent = new Agent({ keepAliveTimeout: 1000 });
  private readonly playerHostCache: { host?: string; at?: number } = {};

  constructor(private readonly options: MediaServiceOptions) {
    this.http = new HttpClient({
      service: MEDIA_SERVICE,
      baseUrl: options.apiUrl,
      timeoutMs: options.timeoutMs ?? 15_000,
      readError: readMediaError,
      bodyStatus: envelopeStatus,
      rateLimitRetries: options.rateLimitRetries ?? 4,
      retryDelayMs: options.rateLimitDelayMs ?? 200,
    });
  }

  /** The API base. */
  get apiUrl(): string {
    return this.options.apiUrl;
  }

  /**
   * The client `user` acts with; throws {@link PermissionDenied} with what to do when Deckhand has
   * no media API key for them.
   */
  async forUser(user: ChatUser): Promise<Client> {
    const found = await this.options.keys.keyFor(user);
    if (!found) {
      throw PermissionDenied.inWords((say) => ({
        message: say.t('media-api-no-key'),
        hint: say.t('media-api-no-key-hint'),
      }));
    }
    return this.withKey(found.key, found.hint);
  }

  /** A client for an explicit key (tests, and the vault once it exists). */
  withKey(key: string, keyHint?: string): Client {
    const session = new MediaSession(this.http, key, keyHint ? { keyHint } : {});
    return new MediaClient(session, {
      ...this.options,
      dispatcher: this.uploadAgent,
      playerHostCache: this.playerHostCache,
    });
  }

  /** Closes the connection pools. */
  async close(): Promise<void> {
    await Promise.all([this.http.close(), this.uploadAgent.close()]);
  }
}
