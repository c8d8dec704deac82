import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type MediaSandbox,
  SANDBOX_MEDIA_KEY,
  sampleChunks,
  sampleSha256,
  startMediaSandbox,
} from '@deckhand/sandbox/media';
import type { MediaAccount } from '@deckhand/sandbox/media/state';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { waitFor } from '../support/wait';

let sandbox: MediaSandbox;
let account: MediaAccount;

beforeAll(async () => {
  sandbox = await startMediaSandbox({
    dataDir: mkdtempSync(join(tmpdir(), 'deckhand-media-sandbox-')),
    stepMs: 30,
    rateLimitPerSecond: 0,
  });
  account = sandbox.controls.account() as MediaAccount;
});
afterAll(async () => {
  await sandbox?.close();
});

/** GET an API path with the key; returns the raw JSON. */
async function api(path: string, query: Record<string, string> = {}, key = SANDBOX_MEDIA_KEY) {
  const url = new URL(`/api/${path}`, sandbox.apiUrl);
  if (key) url.searchParams.set('key', key);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const response = await fetch(url);
  return { http: response.status, body: (await response.json()) as Record<string, unknown> };
}

function form(fields: Record<string, string>, files: { field: string; name: string; bytes: Buffer }[]) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  for (const f of files) data.append(f.field, new Blob([f.bytes]), f.name);
  return data;
}

describe('the envelope and the key', () => {
  it('answers with the documented envelope, numbers as strings where the docs have them', async () => {
    const { http, body } = await api('account/info');
    expect(http).toBe(200);
    expect(body).toMatchObject({ msg: 'OK', status: 200 });
    expect(body.server_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const result = body.result as Record<string, unknown>;
    expect(typeof result.storage_used).toBe('string');
    expect(typeof result.storage_left).toBe('number');
    expect(result).toHaveProperty('premim_expire');
  });

  it('refuses a missing or unknown key with status 403 in the body', async () => {
    expect((await api('account/info', {}, '')).body).toMatchObject({ msg: 'No API key passed', status: 403 });
    expect((await api('account/info', {}, 'nope-nope')).body).toMatchObject({
      msg: 'Invalid key',
      status: 403,
    });
  });

  it('rate-limits above 10 requests a second per key, exactly as the docs show the answer', async () => {
    sandbox.ctx.settings.rateLimitPerSecond = 10;
    // The clock stands still (only Date is faked), so all 12 calls fall in one second however slowly
    // a busy machine sends them.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const bodies = await Promise.all(Array.from({ length: 12 }, () => api('urlupload/slots')));
      const limited = bodies.filter((b) => b.body.msg === 'Too Many Requests');
      expect(limited.length).toBeGreaterThanOrEqual(2);
      expect(limited[0]?.body).toEqual({ msg: 'Too Many Requests', status: '429' });
    } finally {
      vi.useRealTimers();
      sandbox.ctx.settings.rateLimitPerSecond = 0;
    }
  });

  it('answers unknown endpoints with a 404 envelope', async () => {
    expect(await api('nothing/here')).toEqual({
      http: 404,
      body: expect.objectContaining({ msg: 'Unknown endpoint /api/nothing/here', status: 404 }),
    });
  });
});

describe('uploads', () => {
  it('hands out a new upload address per call', async () => {
    const a = (await api('upload/server')).body.result as string;
    const b = (await api('upload/server')).body.result as string;
    expect(a).not.toBe(b);
    expect(a).toMatch(/\/upload\/\d{2,}$/);
  });

  it('takes a multipart upload keyed by the bare query, stores it on disk, and answers an array', async () => {
    const server = (await api('upload/server')).body.result as string;
    const bytes = Buffer.concat([...sampleChunks(300_000, 'form')]);
    const response = await fetch(`${server}?${SANDBOX_MEDIA_KEY}`, {
      method: 'POST',
      body: form({ api_key: SANDBOX_MEDIA_KEY }, [{ field: 'file', name: 'clip.mp4', bytes }]),
    });
    const body = (await response.json()) as { result: Record<string, unknown>[] };
    expect(body.result).toHaveLength(1);
    const item = body.result[0] as Record<string, unknown>;
    expect(item).toMatchObject({ status: 200, title: 'clip', size: '300000', canplay: 0 });
    expect(String(item.protected_embed)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/e\//);
    const stored = sandbox.controls.file(String(item.filecode));
    expect(
      createHash('sha256')
        .update(readFileSync(stored?.path as string))
        .digest('hex'),
    ).toBe(sampleSha256(300_000, 'form'));
    await waitFor(() => sandbox.controls.file(String(item.filecode))?.canPlay);
  });

  it('accepts the key as ?key= or as the api_key field alone; refuses none, a wrong one, and no file', async () => {
    const post = async (query: string, fields: Record<string, string>, withFile = true) => {
      const server = (await api('upload/server')).body.result as string;
      const files = withFile ? [{ field: 'file', name: 'a.txt', bytes: Buffer.from('abc') }] : [];
      const response = await fetch(`${server}${query}`, { method: 'POST', body: form(fields, files) });
      return (await response.json()) as Record<string, unknown>;
    };
    expect((await post(`?key=${SANDBOX_MEDIA_KEY}`, {})).status).toBe(200);
    expect((await post('', { api_key: SANDBOX_MEDIA_KEY })).status).toBe(200);
    expect(await post('', {})).toMatchObject({ msg: 'No API key passed', status: 403 });
    const before = account.files.size;
    expect(await post('?wrong-key-1', { api_key: 'wrong-key-1' })).toMatchObject({
      msg: 'Invalid key',
      status: 403,
    });
    expect(account.files.size).toBe(before);
    expect(await post('', { api_key: SANDBOX_MEDIA_KEY }, false)).toMatchObject({
      msg: 'No file uploaded',
      status: 400,
    });
  });

  it('takes several files in one form, and refuses an address it never handed out', async () => {
    const server = (await api('upload/server')).body.result as string;
    const response = await fetch(server, {
      method: 'POST',
      body: form({ api_key: SANDBOX_MEDIA_KEY }, [
        { field: 'file', name: 'one.mp4', bytes: Buffer.from('1') },
        { field: 'file', name: 'two.mp4', bytes: Buffer.from('22') },
      ]),
    });
    const body = (await response.json()) as { result: { title: string; size: string }[] };
    expect(body.result.map((r) => [r.title, r.size])).toEqual([
      ['one', '1'],
      ['two', '2'],
    ]);
    const stale = await fetch(`${sandbox.apiUrl}/upload/9999`, { method: 'POST', body: form({}, []) });
    expect(stale.status).toBe(404);
  });
});

describe('remote uploads', () => {
  it('goes pending → working (bytes counted) → done: the transfer leaves the queue and the file appears', async () => {
    // Each state lasts long enough to be seen on a busy machine: a 2 s wait before the transfer
    // starts, then 2 s of transfer (600 KB at 300 KB/s).
    const step = sandbox.ctx.settings.stepMs;
    sandbox.ctx.settings.stepMs = 2000;
    onTestFinished(() => {
      sandbox.ctx.settings.stepMs = step;
    });
    const url = `${sandbox.apiUrl}/samples/seminar.mp4?size=600000&rate=300000`;
    const added = (await api('upload/url', { url, new_title: 'Seminar' })).body;
    expect(added).toMatchObject({
      msg: 'OK',
      status: 200,
      new_title: 'Seminar',
      total_slots: '100',
      used_slots: '1',
    });
    const code = (added.result as { filecode: string }).filecode;
    const first = (await api('urlupload/status', { file_code: code })).body.result as Record<
      string,
      string
    >[];
    expect(first[0]).toMatchObject({
      file_code: code,
      status: 'pending',
      bytes_downloaded: '0',
      remote_url: url,
    });
    await waitFor(async () => {
      const now = (await api('urlupload/status', { file_code: code })).body.result as Record<
        string,
        string
      >[];
      return now[0]?.status === 'working' && Number(now[0].bytes_downloaded) > 0;
    });
    await waitFor(
      async () =>
        ((await api('urlupload/status', { file_code: code })).body.result as unknown[]).length === 0,
    );
    expect(account.files.get(code)).toMatchObject({
      title: 'Seminar',
      size: 600_000,
      sha256: sampleSha256(600_000, 'seminar.mp4'),
    });
  });

  it('ends in error for a source that answers 404 or is not on this machine', async () => {
    const missing = (await api('upload/url', { url: `${sandbox.apiUrl}/samples/missing.mp4` })).body;
    const outside = (await api('upload/url', { url: 'https://example.org/v.mp4' })).body;
    for (const added of [missing, outside]) {
      const code = (added.result as { filecode: string }).filecode;
      await waitFor(() => account.remote.get(code)?.status === 'error');
    }
    expect(account.remote.get((outside.result as { filecode: string }).filecode)?.error).toBe(
      'Remote host is not supported',
    );
  });

  it('slots sit at the top level; actions take exactly one parameter and describe what they did', async () => {
    const slots = (await api('urlupload/slots')).body;
    expect(slots).not.toHaveProperty('result');
    expect(slots).toMatchObject({ total_slots: '100', used_slots: expect.any(String) });
    expect((await api('urlupload/actions')).body).toMatchObject({
      status: 400,
      msg: 'Specify exactly one action',
    });
    expect((await api('urlupload/actions', { clear_errors: '1', clear_all: '1' })).body.status).toBe(400);
    expect((await api('urlupload/actions', { clear_errors: '1' })).body).toMatchObject({
      msg: 'Errors cleared',
      status: 200,
    });
    expect((await api('upload/url', { url: 'not a url' })).body).toMatchObject({
      msg: 'Invalid URL',
      status: 400,
    });
  });
});

describe('library', () => {
  it('file/list caps per_page at 200 and folder/list shows folders and files', async () => {
    expect((await api('file/list', { per_page: '201' })).body).toMatchObject({ status: 400 });
    const root = (await api('folder/list', { fld_id: '0' })).body.result as {
      folders: unknown[];
      files: unknown[];
    };
    expect(root.folders).toContainEqual({ name: 'Trailers', code: expect.any(String), fld_id: '101' });
    expect(root.files.length).toBeGreaterThan(0);
  });

  it('serves the player page with its options, and refuses a DMCA-disabled file', async () => {
    const file = [...account.files.values()].find((f) => f.title === 'Launch trailer');
    const page = await fetch(`${sandbox.apiUrl}/e/${file?.code}?c1_label=%3Cb%3EEnglish`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Player: Launch trailer');
    expect(html).toContain('c1_label: &#60;b&#62;English');
    const reported = [...account.files.values()].find((f) => f.dmca);
    expect((await fetch(`${sandbox.apiUrl}/d/${reported?.code}`)).status).toBe(451);
  });

  it('samples are deterministic and removed files do not outlive the sandbox', async () => {
    const one = Buffer.from(await (await fetch(`${sandbox.apiUrl}/samples/x.mp4?size=1000`)).arrayBuffer());
    const two = Buffer.from(await (await fetch(`${sandbox.apiUrl}/samples/x.mp4?size=1000`)).arrayBuffer());
    expect(one.equals(two)).toBe(true);
    const other = await startMediaSandbox({ dataDir: mkdtempSync(join(tmpdir(), 'deckhand-media-close-')) });
    expect(existsSync(other.filesDir)).toBe(true);
    await other.close();
    expect(existsSync(other.filesDir)).toBe(false);
  });
});
