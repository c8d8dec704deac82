/**
 * Typed client of the media host (DoodStream-style API, specs/media/README.md).
 *
 * ```ts
 * const media = new MediaService({ apiUrl, keys: new BotWideKeySource(config.MEDIA_API_KEY) });
 * const client = await media.forUser(invocation.user);
 * const file = await client.uploads.send({ name, stream }, (sent) => progress(sent));
 * ```
 */
export { AccountApi, type StatsRange } from './account';
export { MediaClient, type MediaClientOptions } from './client';
export { MEDIA_SERVICE, mediaError, readMediaError } from './envelope';
export { type FileListOptions, FilesApi, MAX_PER_PAGE } from './files';
export { FoldersApi } from './folders';
export { multipartBody, type StreamedFile } from './multipart';
export {
  downloadPageUrl,
  MAX_SUBTITLES,
  type PlayerOptions,
  playerHostOf,
  playerUrl,
  type Subtitle,
} from './player';
export { type RemoteAction, RemoteUploadsApi, UNFINISHED_REMOTE_STATUSES } from './remote';
export * from './schemas';
export {
  BotWideKeySource,
  type MediaKey,
  type MediaKeySource,
  MediaService,
  type MediaServiceOptions,
} from './service';
export { MediaSession, type MediaSessionOptions } from './session';
export { type ProgressListener, type UploadOptions, UploadsApi } from './uploads';
