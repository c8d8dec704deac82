/**
 * Source imports of one repository (`/repos/{owner}/{repo}/import…`). The real service closed this
 * API in April 2024; the client keeps its contract (and the sandbox emulates it).
 */
import { enc } from './account';
import {
  type Import,
  type ImportAuthor,
  ImportAuthorSchema,
  ImportSchema,
  type LargeFile,
  LargeFileSchema,
} from './imports-schemas';
import type { SourcehostAuth, SourcehostTransport } from './transport';

/** What an import is started with. */
export interface StartImportInput {
  vcs_url: string;
  vcs?: 'subversion' | 'git' | 'mercurial' | 'tfvc';
  vcs_username?: string;
  vcs_password?: string;
  tfvc_project?: string;
}

/** The import of one repository, as one account. */
export class ImportsApi {
  private readonly path: string;

  constructor(
    private readonly transport: SourcehostTransport,
    private readonly auth: SourcehostAuth,
    owner: string,
    repo: string,
  ) {
    this.path = `/repos/${enc(owner)}/${enc(repo)}/import`;
  }

  /** The import's progress. */
  status(): Promise<Import> {
    return this.transport.json('GET', this.path, ImportSchema, { auth: this.auth, route: ROUTE });
  }

  /** Starts an import (201). */
  start(input: StartImportInput): Promise<Import> {
    return this.transport.json('PUT', this.path, ImportSchema, {
      auth: this.auth,
      route: ROUTE,
      body: input,
    });
  }

  /** Updates credentials or the chosen project; with no fields, restarts the import. */
  update(input: Partial<Omit<StartImportInput, 'vcs_url'>> = {}): Promise<Import> {
    return this.transport.json('PATCH', this.path, ImportSchema, {
      auth: this.auth,
      route: ROUTE,
      body: input,
    });
  }

  /** Stops the import. */
  async cancel(): Promise<void> {
    await this.transport.empty('DELETE', this.path, { auth: this.auth, route: ROUTE });
  }

  /** Commit authors found so far (those after author id `since`, when given). */
  authors(since?: number): Promise<ImportAuthor[]> {
    return this.transport.json('GET', `${this.path}/authors`, ImportAuthorSchema.array(), {
      auth: this.auth,
      route: `${ROUTE}/authors`,
      ...(since !== undefined ? { query: { since } } : {}),
    });
  }

  /** Maps a commit author to a name and e-mail address (until the import pushes). */
  mapAuthor(id: number, input: { email?: string; name?: string }): Promise<ImportAuthor> {
    return this.transport.json('PATCH', `${this.path}/authors/${id}`, ImportAuthorSchema, {
      auth: this.auth,
      route: `${ROUTE}/authors/{author_id}`,
      body: input,
    });
  }

  /** Files over 100 MB. */
  largeFiles(): Promise<LargeFile[]> {
    return this.transport.json('GET', `${this.path}/large_files`, LargeFileSchema.array(), {
      auth: this.auth,
      route: `${ROUTE}/large_files`,
    });
  }

  /** Keeps large files with Git LFS (`opt_in`) or removes them (`opt_out`). */
  setLfs(useLfs: 'opt_in' | 'opt_out'): Promise<Import> {
    return this.transport.json('PATCH', `${this.path}/lfs`, ImportSchema, {
      auth: this.auth,
      route: `${ROUTE}/lfs`,
      body: { use_lfs: useLfs },
    });
  }
}

const ROUTE = '/repos/{owner}/{repo}/import';
