import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MediaSandbox } from '@deckhand/sandbox/media';
import type { MediaAccount } from '@deckhand/sandbox/media/state';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, UnreachableError, UpstreamError } from '../../src/core/errors';
import { BotWideKeySource, type MediaClient, MediaService } from '../../src/services/media';
import { failure } from '../support/http-server';
import { codeOf, useMediaClient } from '../support/media-client';

let sandbox: MediaSandbox;
let service: MediaService;
let client: MediaClient;
let account: MediaAccount;
/** A server answering every request with what the test sets (shapes the emulator never sends). */
let odd: Server;
let oddAnswer: { status: number; body: string } = { status: 200, body: '{}' };
let oddService: MediaService;

useMediaClient((rig) => {
  ({ sandbox, service, client, account } = rig);
});
beforeAll(async () => {
  odd = createServer((_req, res) => {
    res.writeHead(oddAnswer.status, { 'content-type': 'application/json' });
    res.end(oddAnswer.body);
  });
  await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
  oddService = new MediaService({
    apiUrl: `http://127.0.0.1:${(odd.address() as AddressInfo).port}`,
    keys: new BotWideKeySource('odd-key-123456'),
  });
});
afterAll(async () => {
  await oddService?.close();
  await new Promise((resolve) => odd?.close(resolve));
});

const code = (title: string) => codeOf(account, title);

describe('folders and files', () => {
  it('creates, renames and lists folders', async () => {
    const id = await client.folders.create('Clips', '101');
    expect(id).toMatch(/^\d+$/);
    await client.folders.rename(id, 'Short clips');
    const inside = await client.folders.list('101');
    expect(inside.folders).toContainEqual({ folderId: id, name: 'Short clips', code: expect.any(String) });
    const root = await client.folders.list('0', { onlyFolders: true });
    expect(root.files).toEqual([]);
    expect(root.folders.map((f) => f.name)).toEqual(['Trailers', 'Talks']);
    const missing = await failure(client.folders.rename('999999', 'x'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe('That folder was not found in this media account.');
  });

  it('lists files by page, folder and creation time; per_page is at most 200', async () => {
    const page = await client.files.list({ perPage: 2 });
    expect(page.files).toHaveLength(2);
    expect(page.totalPages).toBe(Math.ceil(account.files.size / 2));
    expect(page.resultsTotal).toBe(account.files.size);
    expect(page.results).toBe(2);
    expect(page.files[0]).toEqual({
      fileCode: expect.any(String),
      title: expect.any(String),
      length: expect.any(Number),
      views: expect.any(Number),
      uploaded: expect.any(String),
      canPlay: expect.any(Boolean),
      public: true,
      folderId: expect.any(String),
      downloadUrl: expect.stringContaining('/d/'),
      singleImage: expect.stringContaining('/snaps/'),
      splashImage: '',
    });
    const trailers = await client.files.list({ folderId: '101' });
    expect(trailers.files.every((f) => f.folderId === '101')).toBe(true);
    const recent = await client.files.list({ created: 60 });
    expect(recent.files.map((f) => f.title)).not.toContain('Welcome to Deckhand');
    expect(() => client.files.list({ perPage: 201 })).toThrow(RangeError);
  });

  it('check, info and images of a file, and of a file that is not there', async () => {
    const welcome = code('Welcome to Deckhand');
    expect(await client.files.check(welcome)).toEqual({ fileCode: welcome, status: 'Active' });
    expect(await client.files.check('nosuchfile12')).toEqual({
      fileCode: 'nosuchfile12',
      status: 'Not found',
    });
    const info = await client.files.info(welcome);
    expect(info).toMatchObject({
      fileCode: welcome,
      title: 'Welcome to Deckhand',
      size: 15_728_640,
      views: 42,
    });
    expect(info.protectedEmbed).toMatch(/^\/e\/[a-z0-9]{12}$/);
    const images = await client.files.images(welcome);
    expect(images.thumbImage).toBe(`${sandbox.apiUrl}/thumbnails/${welcome}.jpg`);
    const notYours = await failure(client.files.info('nosuchfile12'));
    expect(notYours).toBeInstanceOf(NotFoundError);
    expect(notYours.message).toBe(
      'File nosuchfile12 was not found in this media account (or it belongs to someone else).',
    );
    expect(await failure(client.files.images('nosuchfile12'))).toBeInstanceOf(NotFoundError);
  });

  it('a DMCA-disabled file answers 451', async () => {
    const error = await failure(client.files.info(code('Reported clip')));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(451);
    expect(error.message).toBe(`File ${code('Reported clip')} is disabled after a copyright (DMCA) report.`);
    expect((await failure(client.files.clone(code('Reported clip')))).message).toContain('DMCA');
  });

  it('renames, moves and clones; a file that is not yours is refused', async () => {
    const keynote = code('Conference keynote');
    await client.files.rename(keynote, 'Keynote 2026');
    expect(account.files.get(keynote)?.title).toBe('Keynote 2026');
    await client.files.move(keynote, '102');
    expect(account.files.get(keynote)?.folderId).toBe('102');
    const copy = await client.files.clone(keynote, '0');
    expect(copy.fileCode).not.toBe(keynote);
    expect(copy.downloadUrl).toBe(`${sandbox.apiUrl}/d/${copy.fileCode}`);
    expect(account.files.get(copy.fileCode)).toMatchObject({ title: 'Keynote 2026', folderId: '0' });
    expect(await failure(client.files.rename('nosuchfile12', 'x'))).toBeInstanceOf(NotFoundError);
    expect(await failure(client.files.move(keynote, '424242'))).toBeInstanceOf(NotFoundError);
  });

  it('searches titles (an array of files; none is an empty array)', async () => {
    const found = await client.files.search('trailer');
    expect(found.map((f) => f.title)).toEqual(['Launch trailer']);
    expect(await client.files.search('zzz-nothing')).toEqual([]);
  });

  it('takes the player host from a recent download link', async () => {
    expect(await client.playerHost()).toBe(sandbox.apiUrl);
  });
});

describe('errors', () => {
  it('a wrong key, and a missing one, are refused with 403 and never quoted', async () => {
    const wrong = await failure(service.withKey('wrong-key-123456').account.info());
    expect(wrong).toBeInstanceOf(UpstreamError);
    expect((wrong as UpstreamError).status).toBe(403);
    expect(wrong.message).toBe('The media host refused the API key (Invalid key).');
    expect(`${wrong.message} ${(wrong as UpstreamError).hint}`).not.toContain('wrong-key-123456');
    const missing = await failure(service.withKey('').account.info());
    expect(missing.message).toBe('The media host refused the API key (No API key passed).');
  });

  it('a key source with no key says what to set', async () => {
    const none = new MediaService({ apiUrl: sandbox.apiUrl, keys: new BotWideKeySource(undefined) });
    const error = await failure(none.forUser({ platform: 'slack', id: 'U1', name: 'u', workspace: 'T' }));
    expect(error.message).toBe('Deckhand has no media host API key to act with.');
    await none.close();
  });

  it('waits out "Too Many Requests" (status "429" in the body) and retries', async () => {
    sandbox.controls.rateLimitNext(2);
    expect((await client.account.info()).email).toBe('sandbox@example.org');
  });

  it('also when the host answers HTTP 429', async () => {
    sandbox.ctx.settings.rateLimitHttpStatus = 429;
    try {
      sandbox.controls.rateLimitNext(2);
      expect((await client.account.info()).email).toBe('sandbox@example.org');
    } finally {
      sandbox.ctx.settings.rateLimitHttpStatus = 200;
    }
  });

  it('gives up after its retries with a rate-limit error', async () => {
    sandbox.controls.rateLimitNext(50);
    const impatient = new MediaService({
      apiUrl: sandbox.apiUrl,
      keys: new BotWideKeySource(sandbox.apiKey),
      rateLimitDelayMs: 10,
    });
    try {
      const error = await failure(impatient.withKey(sandbox.apiKey).account.info());
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).status).toBe(429);
      expect(error.message).toContain('rate-limiting requests (10 per second)');
    } finally {
      sandbox.controls.rateLimitNext(0);
      await impatient.close();
    }
  });

  it('the real limit: a burst of more than 10 calls a second still all succeed', async () => {
    sandbox.ctx.settings.rateLimitPerSecond = 10;
    try {
      const results = await Promise.all(
        Array.from({ length: 16 }, () => client.files.check(code('Launch trailer'))),
      );
      expect(results.every((r) => r.status === 'Active')).toBe(true);
    } finally {
      sandbox.ctx.settings.rateLimitPerSecond = 0;
    }
  });

  it('an answer of the wrong shape, an error status and an HTML page are reported clearly', async () => {
    const odd = oddService.withKey('odd-key-123456');
    oddAnswer = { status: 200, body: '{"msg":"OK","status":200,"result":{"nothing":"here"}}' };
    const shape = await failure(odd.account.info());
    expect(shape.message).toBe(
      'The media host sent an answer to account info that Deckhand does not understand.',
    );
    oddAnswer = {
      status: 200,
      body: '{"msg":"Server busy","server_time":"2026-01-01 00:00:00","status":503}',
    };
    const busy = await failure(odd.files.list());
    expect((busy as UpstreamError).status).toBe(503);
    expect(busy.message).toBe('The media host said: Server busy');
    oddAnswer = { status: 403, body: '{"msg":"Wrong Auth","status":403}' };
    expect((await failure(odd.files.list())).message).toBe(
      'The media host refused the API key (Wrong Auth).',
    );
    oddAnswer = { status: 500, body: '<html>oops</html>' };
    const html = await failure(odd.folders.list());
    expect((html as UpstreamError).status).toBe(500);
  });

  it('an unreachable host is an UnreachableError', async () => {
    const closed = new MediaService({
      apiUrl: 'http://127.0.0.1:1',
      keys: new BotWideKeySource('k-1234567'),
    });
    const error = await failure(
      (await closed.forUser({ platform: 'shell', id: 'x', name: 'x', workspace: 'w' })).account.info(),
    );
    expect(error).toBeInstanceOf(UnreachableError);
    await closed.close();
  });
});
