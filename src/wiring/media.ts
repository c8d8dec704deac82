/**
 * The media side of the application, built by `createApp`: the media host client (the sandbox's
 * emulator in sandbox mode, else `MEDIA_API_URL`), the upload service of the commands, and the
 * processor of the `upload` queue.
 */

import type { MediaSandbox } from '@deckhand/sandbox';
import type { Processor, Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { CardPublishing } from '../core/card-publisher';
import type { ChatUser } from '../core/command';
import type { FileResolvers } from '../core/files';
import { translator } from '../i18n/translate';
import { createUploadProcessor, type UploadEnded } from '../queue/upload-processor';
import type { UploadRunDeps } from '../queue/upload-run';
import { QueueUploadService } from '../queue/upload-service';
import type { UploadView } from '../queue/upload-view';
import { BotWideKeySource, type MediaKeySource, MediaService } from '../services/media';

/** The default API host of the media service. */
export const DEFAULT_MEDIA_API_URL = 'https://doodapi.com';

/** What {@link setupMedia} needs. */
export interface MediaSetupOptions {
  config: Config;
  logger: Logger;
  /** The media host's emulator, when it runs (sandbox mode without `MEDIA_API_URL`, see service-modes.ts). */
  emulator?: MediaSandbox | undefined;
  /** The media host is an emulator (here or in its own process): poll it at the sandbox's pace. */
  compressed?: boolean;
  queue: Queue;
  files: FileResolvers;
  view: UploadView;
  /** Edits the uploads' cards. */
  cards: Pick<CardPublishing, 'update'>;
  /** A user's own key (linked with `/link media`), which wins over the bot-wide one. */
  userKey?: (user: ChatUser) => Promise<string | undefined>;
}

/** The media services of one process. */
export interface MediaSetup {
  media: MediaService;
  uploads: QueueUploadService;
  /** The `upload` queue's processor; `ended` hears of each ended upload (direct messages). */
  processor(ended?: UploadEnded): Processor;
  close(): Promise<void>;
}

/** Builds the media client (over the emulator when one is given) and the upload service. */
export async function setupMedia(options: MediaSetupOptions): Promise<MediaSetup> {
  const { config, logger } = options;
  const sandbox = options.emulator;
  const key = config.MEDIA_API_KEY ?? sandbox?.apiKey;
  const media = new MediaService({
    apiUrl: sandbox?.apiUrl ?? config.MEDIA_API_URL ?? DEFAULT_MEDIA_API_URL,
    keys: withUserKeys(new BotWideKeySource(key), options.userKey),
    timeoutMs: config.MEDIA_TIMEOUT_MS,
    ...(config.MEDIA_PLAYER_URL && !sandbox ? { playerUrl: config.MEDIA_PLAYER_URL } : {}),
  });
  const run: UploadRunDeps = {
    media,
    view: options.view,
    cards: options.cards,
    editMs: config.UPLOAD_EDIT_MS,
    logger,
  };
  const uploads = new QueueUploadService(options.queue, options.files, run);
  return {
    media,
    uploads,
    processor: (ended) =>
      createUploadProcessor({
        ...run,
        ended,
        files: options.files,
        // The docs ask for one poll per 3–5 s at most; the sandbox moves as fast as its steps.
        remotePollMs:
          sandbox || options.compressed ? Math.max(20, Math.round(config.SANDBOX_STEP_MS / 3)) : 4000,
        maxAgeMs: config.WATCH_MAX_MINUTES * 60_000,
      }) as Processor,
    async close() {
      await media.close();
    },
  };
}

/** The user's own key first (from the vault), else the bot-wide one. */
function withUserKeys(botWide: MediaKeySource, userKey: MediaSetupOptions['userKey']): MediaKeySource {
  if (!userKey) return botWide;
  return {
    async keyFor(user) {
      const own = await userKey(user);
      if (own) return { key: own, hint: translator('en').t('vault-media-key-refused') };
      return botWide.keyFor(user);
    },
  };
}
