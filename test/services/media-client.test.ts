import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { type MediaSandbox, sampleSha256, sampleStream } from '@deckhand/sandbox/media';
import type { MediaAccount } from '@deckhand/sandbox/media/state';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UnreachableError, UpstreamError } from '../../src/core/errors';
import type { MediaClient, MediaService } from '../../src/services/media';
import { failure } from '../support/http-server';
import { codeOf, useMediaClient } from '../support/media-client';
import { waitFor } from '../support/wait';

let sandbox: MediaSandbox;
let service: MediaService;
let client: MediaClient;
let account: MediaAccount;

useMediaClient((rig) => {
  ({ sandbox, service, client, account } = rig);
});

const code = (title: string) => codeOf(account, title);

describe('account', () => {
  it('info: numbers sent as strings come back as numbers; the misspelt premium field is read', async () => {
    const info = await client.account.info();
    expect(info).toEqual({
      email: 'sandbox@example.org',
      balance: 1.25,
      storageUsed: expect.any(Number),
      storageLeft: expect.any(Number),
      premiumExpire: '2030-01-01 00:00:00',
    });
    expect(info.storageUsed).toBe([...account.files.values()].reduce((sum, f) => sum + f.size, 0));
  });

  it('stats: the last 7 days by default, the last N days, or a date range', async () => {
    expect(await client.account.stats()).toHaveLength(7);
    const three = await client.account.stats({ lastDays: 3 });
    expect(three).toHaveLength(3);
    expect(three[0]).toEqual({
      day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      views: expect.any(Number),
      downloads: expect.any(Number),
      profitViews: expect.any(Number),
      profitTotal: expect.any(Number),
    });
    const range = await client.account.stats({ from: '2026-01-30', to: '2026-02-02' });
    expect(range.map((d) => d.day)).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02']);
    const bad = await failure(client.account.stats({ from: '2026-02-30', to: '2026-03-01' }));
    expect(bad).toBeInstanceOf(UpstreamError);
    expect(bad.message).toBe('The media host said: Invalid date format, use YYYY-MM-DD');
  });

  it('dmca: the reported files, paged', async () => {
    const reports = await client.account.dmca();
    expect(reports).toEqual([
      expect.objectContaining({
        fileCode: code('Reported clip'),
        folderId: '0',
        reportedOn: expect.any(String),
      }),
    ]);
    expect(await client.account.dmca({ page: 2, perPage: 1 })).toEqual([]);
  });
});

describe('local upload', () => {
  it('hands out a different upload server each time', async () => {
    const first = await client.uploads.server();
    const second = await client.uploads.server();
    expect(first).toMatch(new RegExp(`^${sandbox.apiUrl}/upload/\\d+$`));
    expect(second).not.toBe(first);
  });

  it('streams a file as multipart with progress, and answers the uploaded file', async () => {
    const size = 2 * 1024 * 1024 + 5;
    const seen: number[] = [];
    const file = await client.uploads.send(
      { name: 'trip.mp4', mimeType: 'video/mp4', stream: sampleStream(size, { seed: 'trip' }) },
      (sent) => seen.push(sent),
    );
    expect(file).toMatchObject({ title: 'trip', size, canPlay: false, status: 200 });
    expect(file.downloadUrl).toBe(`${sandbox.apiUrl}/d/${file.fileCode}`);
    expect(file.protectedEmbed).toMatch(new RegExp(`^${sandbox.apiUrl}/e/[a-z0-9]{12}$`));
    expect(seen.at(-1)).toBe(size);
    expect(seen.length).toBeGreaterThan(10);
    const stored = sandbox.controls.file(file.fileCode);
    expect(
      createHash('sha256')
        .update(readFileSync(stored?.path as string))
        .digest('hex'),
    ).toBe(sampleSha256(size, 'trip'));
    await waitFor(() => sandbox.controls.file(file.fileCode)?.canPlay);
  });

  it('a server address that was never handed out is refused', async () => {
    const error = await failure(
      client.uploads.send({ name: 'x.bin', stream: Readable.from([Buffer.from('x')]) }, () => {}, {
        server: `${sandbox.apiUrl}/upload/99`,
      }),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toBe(
      "The media host's upload server refused the upload: Upload server not found or expired: ask /api/upload/server for a new one",
    );
  });

  it('a wrong key is refused when asking for the server, before anything is read', async () => {
    const wrong = service.withKey('wrong-key-000000');
    let read = false;
    const stream = new Readable({
      read() {
        read = true;
        this.push(null);
      },
    });
    const error = await failure(wrong.uploads.send({ name: 'x.bin', stream }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(403);
    expect(error.message).toBe('The media host refused the API key (Invalid key).');
    expect(read).toBe(false);
  });

  it('a source that breaks off fails the upload with its own error and stores nothing', async () => {
    const before = account.files.size;
    const error = await failure(
      client.uploads.send({
        name: 'broken.bin',
        stream: Readable.from(
          (async function* () {
            yield Buffer.alloc(200_000);
            throw new Error('ECONNRESET');
          })(),
        ),
      }),
    );
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toMatch(
      /^The download of broken.bin from the chat platform broke off after \d+ bytes/,
    );
    expect(account.files.size).toBe(before);
  });
});

describe('remote upload', () => {
  it('adds a transfer (code at once, slots), follows it while it works, then finds the file', async () => {
    const url = `${sandbox.apiUrl}/samples/lecture.mp4?size=1500000&rate=3000000`;
    const added = await client.remote.add(url, { title: 'Lecture', folderId: '101' });
    expect(added).toEqual({
      fileCode: expect.stringMatching(/^[a-z0-9]{12}$/),
      total: 100,
      used: 1,
      newTitle: 'Lecture',
    });
    expect(await client.remote.slots()).toEqual({ total: 100, used: 1 });
    const listed = await client.remote.list();
    expect(listed).toContainEqual(
      expect.objectContaining({
        fileCode: added.fileCode,
        remoteUrl: url,
        status: expect.stringMatching(/^(pending|working)$/),
        folderId: '101',
      }),
    );
    const working = await waitFor(async () => {
      const transfer = await client.remote.status(added.fileCode);
      return transfer?.status === 'working' && transfer.bytesDownloaded > 0 ? transfer : undefined;
    });
    expect(working.bytesTotal).toBe(1_500_000);
    await waitFor(async () => (await client.remote.status(added.fileCode)) === undefined);
    const info = await client.files.info(added.fileCode);
    expect(info).toMatchObject({ title: 'Lecture', size: 1_500_000 });
    expect(await client.remote.slots()).toEqual({ total: 100, used: 0 });
  });

  it('refuses a URL already queued (400) and runs the four queue actions', async () => {
    const url = `${sandbox.apiUrl}/samples/missing-a.mp4`;
    const first = await client.remote.add(url);
    const again = await failure(client.remote.add(url));
    expect(again).toBeInstanceOf(UpstreamError);
    expect((again as UpstreamError).status).toBe(400);
    expect(again.message).toBe('The media host said: URL already in queue');
    await waitFor(async () => (await client.remote.status(first.fileCode))?.status === 'error');
    expect(await client.remote.action({ kind: 'restart-errors' })).toBe('Errors restarted');
    await waitFor(async () => (await client.remote.status(first.fileCode))?.status === 'error');
    expect(await client.remote.action({ kind: 'clear-errors' })).toBe('Errors cleared');
    expect(await client.remote.status(first.fileCode)).toBeUndefined();
    const slow = await client.remote.add(`${sandbox.apiUrl}/samples/slow.mp4?size=9000000&rate=10000`);
    expect(await client.remote.action({ kind: 'delete', fileCode: slow.fileCode })).toBe('Transfer deleted');
    const gone = await failure(client.remote.action({ kind: 'delete', fileCode: slow.fileCode }));
    expect(gone).toBeInstanceOf(NotFoundError);
    await client.remote.add(`${sandbox.apiUrl}/samples/slow2.mp4?size=9000000&rate=10000`);
    expect(await client.remote.action({ kind: 'clear-all' })).toBe('All transfers cleared');
    expect(await client.remote.list()).toEqual([]);
  });

  it('a host outside this machine is not fetched: the transfer ends in error', async () => {
    const added = await client.remote.add('https://example.org/video.mp4');
    await waitFor(async () => (await client.remote.status(added.fileCode))?.status === 'error');
    await client.remote.action({ kind: 'clear-errors' });
  });
});
