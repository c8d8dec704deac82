/** Files: list, check, info, images, rename, move, clone and search. */
import { z } from 'zod';
import type { MessageKey } from '../../i18n/translate';
import { type Envelope, mediaError } from './envelope';
import {
  type CloneResult,
  CloneResultSchema,
  type FileCheck,
  FileCheckSchema,
  type FileImages,
  FileImagesSchema,
  type FileInfo,
  FileInfoSchema,
  type FileList,
  type FileListItem,
  FileListItemSchema,
  FileListSchema,
  TrueSchema,
} from './schemas';
import { type MediaSession, parseResult } from './session';

/** Most files one `file/list` page may hold. */
export const MAX_PER_PAGE = 200;

/** Options of {@link FilesApi.list}. */
export interface FileListOptions {
  page?: number;
  /** At most {@link MAX_PER_PAGE}. */
  perPage?: number;
  folderId?: string;
  /** Files uploaded after this time (`YYYY-MM-DD HH:MM:SS`) or in the last N minutes. */
  created?: string | number;
}

/** `file/*` and `search/videos`. */
export class FilesApi {
  constructor(private readonly session: MediaSession) {}

  /** One page of the account's files (optionally of one folder). */
  list(options: FileListOptions = {}): Promise<FileList> {
    if (options.perPage !== undefined && (options.perPage < 1 || options.perPage > MAX_PER_PAGE)) {
      throw new RangeError(`perPage must be 1…${MAX_PER_PAGE}`);
    }
    return this.session.call({
      path: '/api/file/list',
      query: {
        page: options.page,
        per_page: options.perPage,
        fld_id: options.folderId,
        created: options.created,
      },
      what: 'media-api-call-file-list',
      read: (e) => parseResult(FileListSchema, e.result, 'media-api-call-file-list'),
    });
  }

  /** The file's status (`Active`, or what the host says about a file it does not know). */
  async check(fileCode: string): Promise<FileCheck> {
    const items = await this.session.call({
      path: '/api/file/check',
      query: { file_code: fileCode },
      fileCode,
      what: 'media-api-call-file-check',
      read: (e) => parseResult(z.array(FileCheckSchema), e.result, 'media-api-call-file-check'),
    });
    return items.find((i) => i.fileCode === fileCode) ?? { fileCode, status: 'Not found' };
  }

  /** Title, size, length, views and links of one file. */
  info(fileCode: string): Promise<FileInfo> {
    return this.session.call({
      path: '/api/file/info',
      query: { file_code: fileCode },
      fileCode,
      what: 'media-api-call-file-info',
      read: (e) => this.item(e, fileCode, FileInfoSchema, 'media-api-call-file-info'),
    });
  }

  /** The file's splash, single and thumbnail images. */
  images(fileCode: string): Promise<FileImages> {
    return this.session.call({
      path: '/api/file/image',
      query: { file_code: fileCode },
      fileCode,
      what: 'media-api-call-file-images',
      read: (e) => this.item(e, fileCode, FileImagesSchema, 'media-api-call-file-images'),
    });
  }

  /** Gives a file a new title. */
  async rename(fileCode: string, title: string): Promise<void> {
    await this.session.call({
      path: '/api/file/rename',
      query: { file_code: fileCode, title },
      fileCode,
      what: 'media-api-call-file-rename',
      read: (e) => parseResult(TrueSchema, e.result, 'media-api-call-file-rename'),
    });
  }

  /** Moves a file to a folder (`0`: the root). */
  async move(fileCode: string, folderId: string): Promise<void> {
    await this.session.call({
      path: '/api/file/move',
      query: { file_code: fileCode, fld_id: folderId },
      fileCode,
      what: 'media-api-call-file-move',
      read: (e) => parseResult(TrueSchema, e.result, 'media-api-call-file-move'),
    });
  }

  /** Copies a file (optionally into a folder); the copy has its own code. */
  clone(fileCode: string, folderId?: string): Promise<CloneResult> {
    return this.session.call({
      path: '/api/file/clone',
      query: { file_code: fileCode, fld_id: folderId },
      fileCode,
      what: 'media-api-call-file-clone',
      read: (e) => parseResult(CloneResultSchema, e.result, 'media-api-call-file-clone'),
    });
  }

  /**
   * Files whose title matches `term`. The docs' sample shows `"result":"true"`; real answers are an
   * array of files, and anything else is read as no match.
   */
  search(term: string): Promise<FileListItem[]> {
    return this.session.call({
      path: '/api/search/videos',
      query: { search_term: term },
      what: 'media-api-call-search',
      read: (e) =>
        Array.isArray(e.result)
          ? parseResult(z.array(FileListItemSchema), e.result, 'media-api-call-search')
          : [],
    });
  }

  /** The item for `fileCode` of a per-item answer; its own `status` must be 200 too. */
  private item<S extends z.ZodType>(
    envelope: Envelope,
    fileCode: string,
    schema: S,
    what: MessageKey,
  ): z.output<S> {
    const items = Array.isArray(envelope.result) ? envelope.result : [];
    const raw = (items.find((i) => (i as { filecode?: unknown })?.filecode === fileCode) ?? items[0]) as
      | { status?: unknown }
      | undefined;
    if (!raw) throw mediaError(404, undefined, this.session.context(fileCode));
    const status = Number(raw.status ?? 200);
    if (status !== 200) throw mediaError(status, String(raw.status), this.session.context(fileCode));
    return parseResult(schema, raw, what);
  }
}
