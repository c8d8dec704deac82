/** The facade over one media account: `client.files.info(code)`, `client.uploads.send(file)`, … */
import { AccountApi } from './account';
import { FilesApi } from './files';
import { FoldersApi } from './folders';
import { playerHostOf } from './player';
import { RemoteUploadsApi } from './remote';
import type { MediaSession } from './session';
import { type UploadOptions, UploadsApi } from './uploads';

/** Options of a {@link MediaClient}. */
export interface MediaClientOptions extends UploadOptions {
  /** Player host for embed links; when unset, taken from the download links the host returns. */
  playerUrl?: string | undefined;
  /** Where the player host read from an answer is remembered (shared by the clients of a service). */
  playerHostCache?: { host?: string; at?: number };
}

/** How long a player host read from an answer is reused, in ms. */
const PLAYER_HOST_TTL_MS = 10 * 60_000;

/**
 * Everything Deckhand can do in one media account. Get one from {@link MediaService.forUser}; it is
 * cheap, so take one per command or job.
 */
export class MediaClient {
  /** Account info, daily stats, DMCA list. */
  readonly account: AccountApi;
  /** Upload server and multipart upload. */
  readonly uploads: UploadsApi;
  /** Transfers from URLs and their queue. */
  readonly remote: RemoteUploadsApi;
  /** Folders. */
  readonly folders: FoldersApi;
  /** Files and search. */
  readonly files: FilesApi;

  constructor(
    session: MediaSession,
    private readonly options: MediaClientOptions = {},
  ) {
    this.account = new AccountApi(session);
    this.uploads = new UploadsApi(session, options);
    this.remote = new RemoteUploadsApi(session);
    this.folders = new FoldersApi(session);
    this.files = new FilesApi(session);
  }

  /**
   * The player host (`https://dood.to`): the configured one, or the host of the newest file's
   * download link (the host rotates, so it is read from a recent answer rather than hard-coded).
   * Undefined when neither is known (an empty account).
   */
  async playerHost(hint?: string): Promise<string | undefined> {
    if (this.options.playerUrl) return playerHostOf(this.options.playerUrl);
    const cache = this.options.playerHostCache ?? {};
    const fromHint = hint ? playerHostOf(hint) : undefined;
    if (fromHint) {
      Object.assign(cache, { host: fromHint, at: Date.now() });
      return fromHint;
    }
    if (cache.host && Date.now() - (cache.at ?? 0) < PLAYER_HOST_TTL_MS) return cache.host;
    const newest = await this.files.list({ perPage: 1 });
    const host = newest.files.map((f) => playerHostOf(f.downloadUrl)).find(Boolean);
    if (host) Object.assign(cache, { host, at: Date.now() });
    return host;
  }
}
