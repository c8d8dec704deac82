/**
 * The media client leaves retries to the shared HTTP layer (one owner: a rate-limited call is sent
 * 1 + `rateLimitRetries` times, not that many times the HTTP layer's own retries), and maps the HTTP
 * layer's errors by their kind, not by their wording.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError, type UpstreamError } from '../../src/core/errors';
import { BotWideKeySource, MediaService } from '../../src/services/media';
import { failure, type ScriptedServer, sendJson, useScriptedServer } from '../support/http-server';

const scripted = useScriptedServer<MediaService>();

function media(options: { rateLimitRetries?: number } = {}) {
  const service = new MediaService({
    apiUrl: scripted.server.url,
    keys: new BotWideKeySource('media-key-123456'),
    rateLimitDelayMs: 5,
    ...options,
  });
  scripted.track(service);
  return service.withKey('media-key-123456');
}

const reply = (status: number, body: unknown) => (res: Parameters<ScriptedServer['answer']>[0]) =>
  sendJson(res, status, body);

describe('media retries', () => {
  it('a call the host keeps rate-limiting is sent 1 + rateLimitRetries times, then reported', async () => {
    for (const status of [200, 429]) {
      scripted.server.reset();
      scripted.server.answer = reply(status, { msg: 'Too Many Requests', status: '429' });
      const error = await failure(media({ rateLimitRetries: 3 }).account.info());
      expect(scripted.server.requests).toBe(4);
      expect((error as UpstreamError).status).toBe(429);
      expect(error.message).toContain('rate-limiting requests (10 per second)');
    }
  });

  it('a rate limit that clears is waited out with no error', async () => {
    let left = 2;
    scripted.server.answer = (res) =>
      reply(200, left-- > 0 ? { msg: 'Too Many Requests', status: '429' } : accountInfo())(res);
    expect((await media().account.info()).email).toBe('me@example.org');
    expect(scripted.server.requests).toBe(3);
  });
});

describe('media errors by kind', () => {
  it("the host's own words are its words even when they read like Deckhand's", async () => {
    scripted.server.answer = reply(500, { msg: 'The media service is under maintenance', status: 500 });
    const error = await failure(media().account.info());
    expect(error.message).toBe('The media host said: The media service is under maintenance');
    // Positive control: with no words of its own, the status is all that is told.
    scripted.server.answer = (res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html>oops</html>');
    };
    expect((await failure(media().account.info())).message).toBe('The media host answered status 500.');
  });

  it('an HTTP 404 with the host saying so is a NotFoundError; an unreadable answer says so', async () => {
    scripted.server.answer = reply(404, { msg: 'Not found or not your file', status: 404 });
    expect(await failure(media().files.info('abc123'))).toBeInstanceOf(NotFoundError);
    scripted.server.answer = reply(200, ['no', 'envelope']);
    expect((await failure(media().account.info())).message).toBe(
      'The media host sent an answer to account info that Deckhand does not understand.',
    );
  });
});

function accountInfo() {
  return {
    msg: 'OK',
    server_time: '2026-01-01 00:00:00',
    status: 200,
    result: {
      email: 'me@example.org',
      balance: '0.00000',
      storage_used: '0',
      storage_left: 1000,
      premim_expire: '',
    },
  };
}
