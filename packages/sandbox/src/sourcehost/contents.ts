/**
 * `GET /repos/{owner}/{repo}/contents/{path}` (`repos/get-content`) as GitHub describes it
 * (https://docs.github.com/en/rest/repos/contents?apiVersion=2022-11-28#get-repository-content,
 * `github/rest-api-description` `descriptions/api.github.com/api.github.com.2022-11-28.yaml`, schemas
 * `content-file` and `content-directory`):
 * - a file answers `type: "file"`, `encoding: "base64"` and `content` broken into lines of 60
 *   characters, each ending with `\n` (Ruby's `Base64.encode64`, as in the description's example);
 *   `sha` is the git blob id; `url`, `git_url`, `html_url`, `download_url` and `_links`;
 * - a file over 1 MB answers `encoding: "none"` and an empty `content` (GitHub changelog 2022-05-03);
 * - a directory (no path: the root) answers an array of entries, `type` `file` or `dir`, sorted by name;
 * - a missing path, an unknown `ref` ("No commit found for the ref …"), an empty repository ("This
 *   repository is empty.") and a repository the caller may not read all answer 404.
 * `ref` is a branch name (also as `heads/<b>` or `refs/heads/<b>`); without it, the default branch
 * (`main`, as `repository.default_branch` says).
 */
import { createHash } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { type ApiEnv, hasScope } from './api';
import type { SandboxRepo, SourcehostState } from './state';

const DOCS = 'https://docs.github.com/rest/repos/contents#get-repository-content';
/** Largest file whose content the endpoint sends (larger ones: `encoding: "none"`). */
const MAX_INLINE_BYTES = 1024 * 1024;
/** Every emulated repository's default branch (see `repoJson`). */
export const DEFAULT_BRANCH = 'main';

/** Adds (or replaces) files on a branch of a repository (full name). */
export function putFiles(
  state: SourcehostState,
  fullName: string,
  files: Record<string, string | Buffer>,
  branch = DEFAULT_BRANCH,
): void {
  const branches = state.files.get(fullName) ?? new Map<string, Map<string, Buffer>>();
  const tree = branches.get(branch) ?? new Map<string, Buffer>();
  for (const [path, content] of Object.entries(files)) tree.set(path, Buffer.from(content));
  branches.set(branch, tree);
  state.files.set(fullName, branches);
}

/** Base64 in lines of 60 characters, each with a trailing newline (`Base64.encode64`). */
export function encode64(bytes: Buffer): string {
  const flat = bytes.toString('base64');
  return (flat.match(/.{1,60}/g) ?? []).map((line) => `${line}\n`).join('');
}

/** The git object id of a blob (`git hash-object`). */
export function blobSha(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

const notFound = (c: Context, message = 'Not Found') =>
  c.json({ message, documentation_url: DOCS, status: '404' }, 404);

function branchOf(ref: string | undefined): string {
  if (!ref) return DEFAULT_BRANCH;
  return ref.replace(/^refs\//, '').replace(/^heads\//, '');
}

/** The links of one entry, as GitHub gives them. */
function links(state: SourcehostState, full: string, path: string, ref: string, type: string, sha: string) {
  const url = `${state.apiUrl}/repos/${full}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const kind = type === 'dir' ? 'tree' : 'blob';
  const git = `${state.apiUrl}/repos/${full}/git/${type === 'dir' ? 'trees' : 'blobs'}/${sha}`;
  const html = `${state.webUrl}/${full}/${kind}/${ref}/${path}`;
  const download = type === 'dir' ? null : `${state.webUrl}/${full}/raw/${ref}/${path}`;
  return { url, git_url: git, html_url: html, download_url: download, _links: { self: url, git, html } };
}

function readable(state: SourcehostState, c: Context<ApiEnv>, repo: SandboxRepo | undefined): boolean {
  if (!repo || !state.permission(repo, c.get('account')?.login).pull) return false;
  return !repo.private || Boolean(c.get('basic')) || hasScope(c.get('token'), 'repo');
}

/** The contents route. */
export function createContentsRoutes(state: SourcehostState): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const handler = (c: Context<ApiEnv>) => {
    const full = `${c.req.param('owner')}/${c.req.param('repo')}`;
    if (!readable(state, c, state.repos.get(full))) return notFound(c);
    const branches = state.files.get(full);
    if (!branches || branches.size === 0) return notFound(c, 'This repository is empty.');
    const ref = c.req.query('ref') || undefined;
    const tree = branches.get(branchOf(ref));
    if (!tree) return notFound(c, `No commit found for the ref ${ref}`);
    const shownRef = ref ?? DEFAULT_BRANCH;
    const marker = `/repos/${c.req.param('owner')}/${c.req.param('repo')}/contents`;
    const raw = c.req.path.slice(c.req.path.indexOf(marker) + marker.length);
    const path = raw.split('/').filter(Boolean).map(decodeURIComponent).join('/');
    const bytes = tree.get(path);
    if (bytes) {
      const sha = blobSha(bytes);
      const inline = bytes.length <= MAX_INLINE_BYTES;
      return c.json({
        type: 'file',
        encoding: inline ? 'base64' : 'none',
        size: bytes.length,
        name: path.split('/').at(-1),
        path,
        content: inline ? encode64(bytes) : '',
        sha,
        ...links(state, full, path, shownRef, 'file', sha),
      });
    }
    const prefix = path ? `${path}/` : '';
    const children = new Map<string, { type: 'file' | 'dir'; bytes?: Buffer }>();
    for (const [name, content] of tree) {
      if (!name.startsWith(prefix)) continue;
      const [first, ...rest] = name.slice(prefix.length).split('/');
      if (!first) continue;
      children.set(first, rest.length ? { type: 'dir' } : { type: 'file', bytes: content });
    }
    if (children.size === 0) return notFound(c);
    const entries = [...children.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, child]) => {
        const childPath = `${prefix}${name}`;
        const sha = child.bytes
          ? blobSha(child.bytes)
          : createHash('sha1').update(`tree ${full} ${shownRef} ${childPath}`).digest('hex');
        return {
          type: child.type,
          size: child.bytes?.length ?? 0,
          name,
          path: childPath,
          sha,
          ...links(state, full, childPath, shownRef, child.type, sha),
        };
      });
    return c.json(entries);
  };
  app.get('/repos/:owner/:repo/contents', handler);
  app.get('/repos/:owner/:repo/contents/*', handler);
  return app;
}
