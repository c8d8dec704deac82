/**
 * Reading a file of a repository: `GET /repos/{owner}/{repo}/contents/{path}` (`repos/get-content`,
 * https://docs.github.com/en/rest/repos/contents?apiVersion=2022-11-28#get-repository-content).
 * A file answers an object (`content-file`) whose `content` is base64 with a line break every 60
 * characters; a directory answers an array of entries; a symlink or submodule an object of its own
 * `type`. `ref` (a branch, tag or commit) defaults to the repository's default branch. Files over
 * 1 MB come with `encoding: "none"` and an empty `content` (GitHub changelog 2022-05-03, "Increased
 * file size limit when retrieving file contents via REST API").
 */
import { z } from 'zod';
import { enc } from './account';
import type { SourcehostAuth, SourcehostTransport } from './transport';

/** `content-file`: one file, its content base64-encoded (the fields Deckhand reads). */
export const ContentFileSchema = z.looseObject({
  type: z.literal('file'),
  encoding: z.string(),
  size: z.number(),
  name: z.string(),
  path: z.string(),
  content: z.string(),
  sha: z.string(),
  html_url: z.string().nullish(),
});
/** One file of a repository. */
export type ContentFile = z.output<typeof ContentFileSchema>;

/** One entry of a directory listing (`content-directory` items). */
export const ContentEntrySchema = z.looseObject({
  type: z.string(),
  name: z.string(),
  path: z.string(),
  size: z.number(),
  sha: z.string(),
});
/** An entry of a directory. */
export type ContentEntry = z.output<typeof ContentEntrySchema>;

/** What a path of a repository is. */
export type RepositoryContent =
  | { kind: 'file'; file: ContentFile }
  | { kind: 'dir'; entries: ContentEntry[] }
  /** A symlink to something that is not a file, or a submodule. */
  | { kind: 'other'; type: string };

const AnswerSchema = z.union([
  ContentFileSchema,
  z.array(ContentEntrySchema),
  z.looseObject({ type: z.string() }),
]);

/** The bytes of a file read with {@link ContentsApi.get}; `undefined` when they were not sent (over 1 MB). */
export function fileBytes(file: ContentFile): Buffer | undefined {
  if (file.encoding !== 'base64') return file.size === 0 ? Buffer.alloc(0) : undefined;
  return Buffer.from(file.content.replace(/\s+/g, ''), 'base64');
}

/** Files and directories of repositories. */
export class ContentsApi {
  constructor(
    private readonly transport: SourcehostTransport,
    private readonly auth: SourcehostAuth,
  ) {}

  /**
   * `GET /repos/{owner}/{repo}/contents/{path}?ref=`: what `path` is at `ref`. A missing repository,
   * path or ref is an `UpstreamError` with status 404 (the repository of another account as well).
   */
  async get(owner: string, repo: string, path: string, ref?: string): Promise<RepositoryContent> {
    const segments = path.split('/').filter(Boolean).map(enc).join('/');
    const answer = await this.transport.json(
      'GET',
      `/repos/${enc(owner)}/${enc(repo)}/contents/${segments}`,
      AnswerSchema,
      {
        auth: this.auth,
        route: '/repos/{owner}/{repo}/contents/{path}',
        ...(ref ? { query: { ref } } : {}),
      },
    );
    if (Array.isArray(answer)) return { kind: 'dir', entries: answer };
    const file = ContentFileSchema.safeParse(answer);
    return file.success ? { kind: 'file', file: file.data } : { kind: 'other', type: answer.type };
  }
}
