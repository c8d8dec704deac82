/**
 * The source host emulator's `GET /repos/{owner}/{repo}/contents/{path}` as GitHub describes it
 * (packages/sandbox/src/sourcehost/contents.ts), read raw and through the typed client.
 */
import { createHash } from 'node:crypto';
import { type SourcehostSandbox, startSourcehostSandbox } from '@deckhand/sandbox/sourcehost';
import { putFiles } from '@deckhand/sandbox/sourcehost/contents';
import { MYTOOL_JOBS_YAML } from '@deckhand/sandbox/sourcehost/seed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/core/errors';
import { fileBytes, SourcehostFactory } from '../../src/services/sourcehost';

let sandbox: SourcehostSandbox;
let factory: SourcehostFactory;
const UA = { 'user-agent': 'deckhand-test', 'x-github-api-version': '2022-11-28' };

beforeAll(async () => {
  sandbox = await startSourcehostSandbox({ stepMs: 10 });
  factory = new SourcehostFactory({ apiUrl: sandbox.apiUrl, webUrl: sandbox.webUrl });
});
afterAll(async () => {
  await factory?.close();
  await sandbox?.close();
});

const get = async (path: string, token?: string) => {
  const response = await fetch(`${sandbox.apiUrl}${path}`, {
    headers: { ...UA, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('source host sandbox: repository contents', () => {
  it('a file: type file, base64 in lines of 60 characters, the git blob sha, and its links', async () => {
    const { status, body } = await get('/repos/toolforge-repos/mytool/contents/jobs.yaml');
    expect(status).toBe(200);
    expect(body).toMatchObject({ type: 'file', encoding: 'base64', name: 'jobs.yaml', path: 'jobs.yaml' });
    const content = body.content as string;
    const lines = content.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -2).every((line) => line.length === 60)).toBe(true);
    expect(Buffer.from(content, 'base64').toString()).toBe(MYTOOL_JOBS_YAML);
    expect(body.size).toBe(Buffer.byteLength(MYTOOL_JOBS_YAML));
    const blob = createHash('sha1')
      .update(`blob ${Buffer.byteLength(MYTOOL_JOBS_YAML)}\0${MYTOOL_JOBS_YAML}`)
      .digest('hex');
    expect(body.sha).toBe(blob);
    expect(body._links).toMatchObject({ self: body.url, git: body.git_url, html: body.html_url });
  });

  it('round-trips any bytes through the typed client, on another branch with ?ref=', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 37) % 256));
    putFiles(sandbox.state, 'toolforge-repos/demo', { 'data/blob.bin': bytes }, 'staging');
    const client = factory.anonymous();
    const content = await client.contents.get('toolforge-repos', 'demo', 'data/blob.bin', 'staging');
    expect(content.kind).toBe('file');
    if (content.kind !== 'file') return;
    expect(fileBytes(content.file)?.equals(bytes)).toBe(true);
    // Not on the default branch.
    await expect(client.contents.get('toolforge-repos', 'demo', 'data/blob.bin')).rejects.toMatchObject({
      status: 404,
    });
  });

  it('404: a missing path, an unknown ref, an empty repository, a private repository without access', async () => {
    const missing = await get('/repos/toolforge-repos/demo/contents/jobs.yaml');
    expect(missing).toEqual({
      status: 404,
      body: expect.objectContaining({ message: 'Not Found', status: '404' }),
    });
    const ref = await get('/repos/toolforge-repos/mytool/contents/jobs.yaml?ref=nosuch');
    expect(ref.status).toBe(404);
    expect(ref.body.message).toBe('No commit found for the ref nosuch');
    const empty = await get('/repos/hubot/scratch/contents/README.md');
    expect(empty.status).toBe(404);
    expect(empty.body.message).toBe('This repository is empty.');
    putFiles(sandbox.state, 'mona/notes', { 'todo.md': '- secret\n' });
    expect((await get('/repos/mona/notes/contents/todo.md')).status).toBe(404);
    const mona = sandbox.controls.issueToken('mona', ['repo']).token;
    expect((await get('/repos/mona/notes/contents/todo.md', mona)).status).toBe(200);
    const error = await factory
      .anonymous()
      .contents.get('toolforge-repos', 'demo', 'jobs.yaml')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(404);
  });

  it('a directory answers an array of its entries (files and subdirectories); the root too', async () => {
    const dir = await fetch(`${sandbox.apiUrl}/repos/toolforge-repos/mytool/contents/mytool`, {
      headers: UA,
    });
    const entries = (await dir.json()) as { type: string; name: string; path: string }[];
    expect(entries.map((e) => [e.type, e.path])).toEqual([
      ['file', 'mytool/__init__.py'],
      ['file', 'mytool/web.py'],
    ]);
    const root = await factory.anonymous().contents.get('toolforge-repos', 'mytool', '');
    expect(root.kind).toBe('dir');
    if (root.kind !== 'dir') return;
    expect(root.entries.find((e) => e.name === 'mytool')?.type).toBe('dir');
    expect(root.entries.map((e) => e.name)).toContain('jobs.yaml');
  });

  it('a file over 1 MB comes without its content (encoding none)', async () => {
    putFiles(sandbox.state, 'toolforge-repos/demo', { 'big.log': Buffer.alloc(1024 * 1024 + 1, 'a') });
    const { body } = await get('/repos/toolforge-repos/demo/contents/big.log');
    expect(body).toMatchObject({ type: 'file', encoding: 'none', content: '', size: 1024 * 1024 + 1 });
  });
});
