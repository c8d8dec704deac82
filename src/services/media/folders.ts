/** Folders: create, rename, and list what one holds. */
import { FolderCreatedSchema, type FolderListing, FolderListingSchema, TrueSchema } from './schemas';
import { type MediaSession, parseResult } from './session';

/** `folder/create`, `folder/rename`, `folder/list`. */
export class FoldersApi {
  constructor(private readonly session: MediaSession) {}

  /** Creates a folder (in `parentId`, default the root); returns its id. */
  async create(name: string, parentId?: string): Promise<string> {
    const created = await this.session.call({
      path: '/api/folder/create',
      query: { name, parent_id: parentId },
      what: 'media-api-call-folder-create',
      read: (e) => parseResult(FolderCreatedSchema, e.result, 'media-api-call-folder-create'),
    });
    return created.folderId;
  }

  /** Renames a folder. */
  async rename(folderId: string, name: string): Promise<void> {
    await this.session.call({
      path: '/api/folder/rename',
      query: { fld_id: folderId, name },
      what: 'media-api-call-folder-rename',
      read: (e) => parseResult(TrueSchema, e.result, 'media-api-call-folder-rename'),
    });
  }

  /** The folders (and, unless `onlyFolders`, the files) in a folder; `0` is the root. */
  list(folderId = '0', options: { onlyFolders?: boolean } = {}): Promise<FolderListing> {
    return this.session.call({
      path: '/api/folder/list',
      query: { fld_id: folderId, only_folders: options.onlyFolders ? 1 : 0 },
      what: 'media-api-call-folder-list',
      read: (e) => parseResult(FolderListingSchema, e.result, 'media-api-call-folder-list'),
    });
  }
}
