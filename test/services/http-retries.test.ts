/**
 * The shared HTTP layer as the one owner of retries: a result code reported in a 200 answer's body
 * (the media host's `{"msg":"Too Many Requests","status":"429"}`, specs/media/README.md §1) is
 * retried by undici's RetryHandler like the same HTTP status; rate limits may get more retries than
 * 5xx; and its errors say by their `kind` what their message is made of.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnswerError, HttpClient } from '../../src/services/http';
import { envelopeStatus, readMediaError } from '../../src/services/media/envelope';
import { failure, sendJson as json, useScriptedServer } from '../support/http-server';

const scripted = useScriptedServer<HttpClient>();

function client(overrides: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient {
  const c = new HttpClient({
    service: 'media',
    baseUrl: scripted.server.url,
    retries: 2,
    retryDelayMs: 5,
    timeoutMs: 3_000,
    readError: readMediaError,
    bodyStatus: envelopeStatus,
    ...overrides,
  });
  scripted.track(c);
  return c;
}

const RATE_LIMITED = { msg: 'Too Many Requests', status: '429' };
const OK = { msg: 'OK', status: 200, result: { n: 1 } };
const Envelope = z.looseObject({ msg: z.string() });

describe('retries of a result code reported in the body', () => {
  it('a 200 answer whose body says 429 is retried, and the next good answer is returned', async () => {
    scripted.server.answer = (res, attempt) => json(res, 200, attempt <= 2 ? RATE_LIMITED : OK);
    const answer = await client().json('GET', '/api/account/info', Envelope);
    expect(answer).toMatchObject(OK);
    expect(scripted.server.requests).toBe(3);
  });

  it('retries run out on the same count as for HTTP 429, keeping the service own words', async () => {
    scripted.server.answer = (res) => json(res, 200, RATE_LIMITED);
    const error = await failure(client({ rateLimitRetries: 4 }).json('GET', '/api/x', Envelope));
    expect(scripted.server.requests).toBe(5);
    expect(error).toBeInstanceOf(AnswerError);
    expect((error as AnswerError).status).toBe(429);
    expect((error as AnswerError).kind).toBe('said');
    expect((error as AnswerError).said).toBe('Too Many Requests');
    // Positive control: the same answer as an HTTP status is tried the same number of times.
    scripted.server.reset();
    scripted.server.answer = (res) => json(res, 429, RATE_LIMITED);
    await failure(client({ rateLimitRetries: 4 }).json('GET', '/api/x', Envelope));
    expect(scripted.server.requests).toBe(5);
  });

  it('a 5xx gets only `retries` even when rate limits get more', async () => {
    scripted.server.answer = (res) => json(res, 200, { msg: 'Server busy', status: 503 });
    const error = await failure(client({ rateLimitRetries: 4 }).json('GET', '/api/x', Envelope));
    expect(scripted.server.requests).toBe(3);
    expect((error as AnswerError).status).toBe(503);
    expect(error.message).toBe('Server busy');
  });

  it('a body code that is not worth retrying is handed back untouched, after one request', async () => {
    scripted.server.answer = (res) => json(res, 200, { msg: 'Wrong Auth', status: 403 });
    expect(await client().json('GET', '/api/x', Envelope)).toEqual({ msg: 'Wrong Auth', status: 403 });
    expect(scripted.server.requests).toBe(1);
  });

  it('a non-idempotent call is never retried, whatever its body says', async () => {
    scripted.server.answer = (res) => json(res, 200, RATE_LIMITED);
    expect(await client().json('POST', '/api/x', Envelope, { body: {} })).toMatchObject(RATE_LIMITED);
    expect(scripted.server.requests).toBe(1);
  });
});

describe('what an error message is made of', () => {
  it('the service own words, only the status, or an answer not understood', async () => {
    scripted.server.answer = (res) => json(res, 404, { msg: 'The media service has no such file' });
    const said = (await failure(client().json('GET', '/api/x', Envelope))) as AnswerError;
    expect([said.kind, said.said]).toEqual(['said', 'The media service has no such file']);

    scripted.server.answer = (res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    };
    const status = (await failure(client({ retries: 0 }).json('GET', '/api/x', Envelope))) as AnswerError;
    expect([status.kind, status.said, status.message]).toEqual([
      'status',
      undefined,
      'The media service answered 502 Bad Gateway.',
    ]);

    scripted.server.answer = (res) => json(res, 200, ['not', 'an', 'envelope']);
    const unreadable = (await failure(client().json('GET', '/api/x', Envelope))) as AnswerError;
    expect([unreadable.kind, unreadable.status]).toEqual(['unreadable', 502]);
  });
});
