/**
 * Schemas of the media API's results (specs/media/README.md §3), each turned into a tidy object:
 * camelCase names, numbers as numbers (the API sends most as strings), and one name for the file
 * code (`file_code` in lists, `filecode` in info, upload and clone results).
 */
import { z } from 'zod';
import { flag, numeric, text } from './envelope';

/**
 * Optional text fields under the API's names (`shape`, for a schema), and `read`, which gives them
 * our camelCase names with `''` for a missing one.
 */
function textFields<const M extends Record<string, string>>(names: M) {
  const shape = Object.fromEntries(Object.keys(names).map((api) => [api, text])) as {
    [K in keyof M]: typeof text;
  };
  const read = (raw: { [K in keyof M]?: string | undefined }) =>
    Object.fromEntries(Object.entries(names).map(([api, ours]) => [ours, raw[api] ?? ''])) as {
      [K in keyof M as M[K]]: string;
    };
  return { names, shape, read };
}

/** The protected links most answers carry. */
const protectedLinks = textFields({
  protected_download: 'protectedDownload',
  protected_embed: 'protectedEmbed',
});

/** Account information (`account/info`). */
export const AccountInfoSchema = z
  .looseObject({
    email: z.string(),
    balance: numeric.optional(),
    storage_used: numeric.optional(),
    storage_left: numeric.optional(),
    premim_expire: text,
  })
  .transform((a) => ({
    email: a.email,
    balance: a.balance ?? 0,
    storageUsed: a.storage_used ?? 0,
    storageLeft: a.storage_left ?? 0,
    /** The API spells it `premim_expire`. */
    premiumExpire: a.premim_expire || undefined,
  }));
/** Account information, normalised. */
export type AccountInfo = z.output<typeof AccountInfoSchema>;

/** One day of statistics (`account/stats`). */
export const DailyStatsSchema = z
  .looseObject({
    day: z.string(),
    views: numeric.optional(),
    downloads: numeric.optional(),
    profit_views: numeric.optional(),
    profit_total: numeric.optional(),
  })
  .transform((d) => ({
    day: d.day,
    views: d.views ?? 0,
    downloads: d.downloads ?? 0,
    profitViews: d.profit_views ?? 0,
    profitTotal: d.profit_total ?? 0,
  }));
/** One day of statistics, normalised. */
export type DailyStats = z.output<typeof DailyStatsSchema>;

const dmcaText = textFields({
  reported_on: 'reportedOn',
  disabled_on: 'disabledOn',
  ...protectedLinks.names,
});

/** A file disabled after a copyright report (`dmca/list`). */
export const DmcaReportSchema = z
  .looseObject({ file_code: z.string(), fld_id: text, ...dmcaText.shape })
  .transform((d) => ({ fileCode: d.file_code, folderId: d.fld_id ?? '0', ...dmcaText.read(d) }));
/** A copyright-reported file, normalised. */
export type DmcaReport = z.output<typeof DmcaReportSchema>;

/** Fields the upload and `file/info` answers share (file code, title, sizes, images, links). */
const fileFields = {
  filecode: z.string(),
  title: text,
  size: numeric.optional(),
  length: numeric.optional(),
  canplay: flag.optional(),
  uploaded: text,
  protected_embed: text,
  protected_dl: text,
  single_img: text,
  splash_img: text,
};

/** Those shared fields, normalised. `protectedEmbed` is relative (`/e/…`) in `file/info`: prefix the player host. */
function fileBasics(f: z.output<z.ZodObject<typeof fileFields>>) {
  return {
    fileCode: f.filecode,
    title: f.title ?? '',
    size: f.size ?? 0,
    length: f.length ?? 0,
    canPlay: f.canplay ?? false,
    uploaded: f.uploaded ?? '',
    protectedEmbed: f.protected_embed ?? '',
    protectedDownload: f.protected_dl ?? '',
    singleImage: f.single_img ?? '',
    splashImage: f.splash_img ?? '',
  };
}

/** A file as the upload answers it (one item of the upload result array). */
export const UploadedFileSchema = z
  .looseObject({
    ...fileFields,
    status: z.union([z.number(), z.string()]).optional(),
    download_url: text,
  })
  .transform((f) => ({ ...fileBasics(f), status: f.status, downloadUrl: f.download_url ?? '' }));
/** An uploaded file as the upload answers it, normalised. */
export type UploadedFile = z.output<typeof UploadedFileSchema>;

const cloneText = textFields({
  embed_url: 'embedUrl',
  download_url: 'downloadUrl',
  ...protectedLinks.names,
});

/** The copy made by `file/clone`. */
export const CloneResultSchema = z
  .looseObject({ filecode: z.string(), ...cloneText.shape })
  .transform((c) => ({ fileCode: c.filecode, ...cloneText.read(c) }));
/** The copy `file/clone` made, normalised. */
export type CloneResult = z.output<typeof CloneResultSchema>;

/** A remote upload (transfer from a URL) in the queue (`urlupload/list`, `urlupload/status`). */
export const RemoteUploadSchema = z
  .looseObject({
    file_code: z.string(),
    remote_url: text,
    status: z.string(),
    bytes_total: numeric.optional(),
    bytes_downloaded: numeric.optional(),
    folder_id: text,
    created: text,
  })
  .transform((r) => ({
    fileCode: r.file_code,
    remoteUrl: r.remote_url ?? '',
    /** `pending`, `working`, `error`; anything else means finished. */
    status: r.status,
    bytesTotal: r.bytes_total ?? 0,
    bytesDownloaded: r.bytes_downloaded ?? 0,
    folderId: r.folder_id ?? '0',
    created: r.created ?? '',
  }));
/** A transfer in the remote-upload queue, normalised. */
export type RemoteUpload = z.output<typeof RemoteUploadSchema>;

/** Remote-upload slots of the account. */
export interface Slots {
  total: number;
  used: number;
}

/** What `upload/url` answers: the file code is assigned at once. */
export interface RemoteUploadAdded extends Slots {
  fileCode: string;
  newTitle: string;
}

/** A folder (`folder/list`). */
export const FolderSchema = z
  .looseObject({ fld_id: z.union([z.string(), z.number()]), name: z.string(), code: text })
  .transform((f) => ({ folderId: String(f.fld_id), name: f.name, code: f.code ?? '' }));
/** A folder, normalised. */
export type Folder = z.output<typeof FolderSchema>;

/** A file in a list (`file/list`, `folder/list`, `search/videos`). */
export const FileListItemSchema = z
  .looseObject({
    file_code: z.string(),
    title: text,
    length: numeric.optional(),
    views: numeric.optional(),
    uploaded: text,
    canplay: flag.optional(),
    public: flag.optional(),
    fld_id: text,
    download_url: text,
    single_img: text,
    splash_img: text,
  })
  .transform((f) => ({
    fileCode: f.file_code,
    title: f.title ?? '',
    length: f.length ?? 0,
    views: f.views ?? 0,
    uploaded: f.uploaded ?? '',
    canPlay: f.canplay ?? false,
    public: f.public ?? false,
    folderId: f.fld_id ?? '0',
    downloadUrl: f.download_url ?? '',
    singleImage: f.single_img ?? '',
    splashImage: f.splash_img ?? '',
  }));
/** A file in a list, normalised. */
export type FileListItem = z.output<typeof FileListItemSchema>;

/** A page of `file/list`. */
export const FileListSchema = z
  .looseObject({
    total_pages: numeric.optional(),
    results_total: numeric.optional(),
    results: numeric.optional(),
    files: z.array(FileListItemSchema).default([]),
  })
  .transform((l) => ({
    files: l.files,
    totalPages: l.total_pages ?? 1,
    resultsTotal: l.results_total ?? l.files.length,
    results: l.results ?? l.files.length,
  }));
/** A page of files, normalised. */
export type FileList = z.output<typeof FileListSchema>;

/** What a folder holds (`folder/list`). */
export const FolderListingSchema = z
  .looseObject({
    folders: z.array(FolderSchema).default([]),
    files: z.array(FileListItemSchema).default([]),
  })
  .transform((l) => ({ folders: l.folders, files: l.files }));
/** What a folder holds, normalised. */
export type FolderListing = z.output<typeof FolderListingSchema>;

/** `file/check` item. */
export const FileCheckSchema = z
  .looseObject({ filecode: z.string(), status: z.union([z.string(), z.number()]) })
  .transform((c) => ({ fileCode: c.filecode, status: String(c.status) }));
/** The status of one file. */
export type FileCheck = z.output<typeof FileCheckSchema>;

/** `file/info` item (only when its `status` is 200). */
export const FileInfoSchema = z
  .looseObject({ ...fileFields, views: numeric.optional(), last_view: text })
  .transform((f) => ({ ...fileBasics(f), views: f.views ?? 0, lastView: f.last_view ?? '' }));
/** The details of one file, normalised. */
export type FileInfo = z.output<typeof FileInfoSchema>;

const imageText = textFields({
  title: 'title',
  single_img: 'singleImage',
  thumb_img: 'thumbImage',
  splash_img: 'splashImage',
});

/** `file/image` item. */
export const FileImagesSchema = z
  .looseObject({ filecode: z.string(), ...imageText.shape })
  .transform((i) => ({ fileCode: i.filecode, ...imageText.read(i) }));
/** The images of one file. */
export type FileImages = z.output<typeof FileImagesSchema>;

/** Folder created. */
export const FolderCreatedSchema = z
  .looseObject({ fld_id: z.union([z.string(), z.number()]) })
  .transform((f) => ({ folderId: String(f.fld_id) }));

/** `"true"` (a string) or `true`. */
export const TrueSchema = z.union([z.literal('true'), z.literal(true)]);
