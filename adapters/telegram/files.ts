/**
 * Files users send the bot (documents, videos, audio, voice notes, photos), exposed to the core as
 * {@link IncomingFile} references: nothing is downloaded until `open()`, which asks `getFile` for the
 * file's path and streams it from `<api root>/file/bot<token>/<path>`. A local Bot API server started
 * with `--local` answers with an absolute path on its disk instead; that is read directly.
 *
 * The cloud Bot API hands out files up to 20 MB only; bigger ones are refused up front with a
 * message that says what to do instead.
 */
import { createReadStream } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Readable } from 'node:stream';
import type { Api, RawApi } from 'grammy';
import { GrammyError } from 'grammy';
import type { Message } from 'grammy/types';
import { request } from 'undici';
import { UnreachableError, UpstreamError, UsageError } from '../../src/core/errors';
import type { FileResolver, IncomingFile } from '../../src/core/files';
import { type Translator, t, translator } from '../../src/i18n/translate';

/** What the cloud Bot API lets bots download. */
export const CLOUD_DOWNLOAD_LIMIT = 20 * 1024 * 1024;
/** What a local Bot API server lets bots download. */
export const LOCAL_DOWNLOAD_LIMIT = 2000 * 1024 * 1024;

/** A file too big to download, by name and size. */
export interface OversizedFile {
  name: string;
  size: number;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The message for a file over the download limit: why, and the two ways around it. */
export function tooBigMessage(
  file: OversizedFile,
  limit: number,
  say: Translator = translator('en'),
): string {
  return [
    say.t('telegram-file-too-big', file.name, megabytes(file.size), megabytes(limit)),
    say.t('telegram-file-too-big-hint'),
  ].join('\n');
}

/** Where files are downloaded from. */
export interface FileSource {
  api: Api<RawApi>;
  token: string;
  apiRoot: string;
  /** Download limit in bytes. */
  limit: number;
}

/**
 * The largest size of a photo message. Telegram sends a photo as an array of sizes of the same
 * picture (Message.photo: "Available sizes of the photo"), smallest first; the largest by area (then
 * bytes) is the one the person sent, the others are Telegram's thumbnails. Photos are JPEG.
 */
function largestPhoto(
  message: Message,
): { fileId: string; name: string; size?: number | undefined; mimeType: string } | undefined {
  const sizes = message.photo ?? [];
  if (sizes.length === 0) return undefined;
  const area = (s: (typeof sizes)[number]) => s.width * s.height;
  const best = sizes.reduce((a, b) =>
    area(b) > area(a) || (area(b) === area(a) && (b.file_size ?? 0) > (a.file_size ?? 0)) ? b : a,
  );
  return {
    fileId: best.file_id,
    name: `photo_${best.file_unique_id}.jpg`,
    size: best.file_size,
    mimeType: 'image/jpeg',
  };
}

/** The media of a message, if it carries a document, video, audio, voice note or photo. */
function mediaOf(
  message: Message,
): { fileId: string; name: string; size?: number | undefined; mimeType?: string } | undefined {
  const doc = message.document ?? message.video ?? message.audio ?? message.voice;
  if (!doc) return largestPhoto(message);
  const fallback = message.video
    ? 'video.mp4'
    : message.audio
      ? 'audio.mp3'
      : message.voice
        ? 'voice.ogg'
        : 'file';
  const name = ('file_name' in doc && doc.file_name) || fallback;
  return {
    fileId: doc.file_id,
    name,
    size: doc.file_size,
    ...(doc.mime_type ? { mimeType: doc.mime_type } : {}),
  };
}

async function download(
  source: FileSource,
  fileId: string,
  name: string,
  size: number | undefined,
): Promise<Readable> {
  let path: string | undefined;
  try {
    path = (await source.api.getFile(fileId)).file_path;
  } catch (error) {
    if (error instanceof GrammyError && /file is too big/i.test(error.description)) {
      const file = { name, size: size ?? CLOUD_DOWNLOAD_LIMIT + 1 };
      throw UsageError.inWords((say) => ({ message: tooBigMessage(file, CLOUD_DOWNLOAD_LIMIT, say) }));
    }
    throw error;
  }
  if (!path) throw new UpstreamError('telegram', 400, t('en', 'telegram-file-not-handed-out', name));
  if (isAbsolute(path)) return createReadStream(path);
  const url = `${source.apiRoot}/file/bot${source.token}/${path.split('/').map(encodeURIComponent).join('/')}`;
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, { method: 'GET' });
  } catch (error) {
    // The URL holds the token: never put it (or the undici error quoting it) in a message.
    throw new UnreachableError('telegram', t('en', 'telegram-file-unreachable', name), {
      cause: new Error((error as Error).name),
    });
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new UpstreamError('telegram', response.statusCode, t('en', 'telegram-file-refused', name));
  }
  return response.body;
}

/**
 * The files of a message as references, and those over the download limit (which are left out).
 */
export function incomingFiles(
  message: Message,
  source: FileSource,
): { files: IncomingFile[]; oversized: OversizedFile[] } {
  const media = mediaOf(message);
  if (!media) return { files: [], oversized: [] };
  if (media.size !== undefined && media.size > source.limit) {
    return { files: [], oversized: [{ name: media.name, size: media.size }] };
  }
  const file: IncomingFile = {
    name: media.name,
    size: media.size,
    ...(media.mimeType ? { mimeType: media.mimeType } : {}),
    open: () => download(source, media.fileId, media.name, media.size),
    locator: {
      platform: 'telegram',
      fileId: media.fileId,
      name: media.name,
      size: media.size,
    },
  };
  return { files: [file], oversized: [] };
}

/** Opens a located file (its `file_id`) in any process of the same bot. */
export function telegramFileResolver(source: FileSource): FileResolver {
  return (locator) => {
    const size = typeof locator.size === 'number' ? locator.size : undefined;
    return download(source, String(locator.fileId ?? ''), String(locator.name ?? 'file'), size);
  };
}
