/**
 * A request that changes something (POST) and timed out, or failed, may have been carried out: the
 * HTTP layer never sends it again by itself (the command's effect record decides what happens next).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UnreachableError } from '../../src/core/errors';
import { HttpClient } from '../../src/services/http';
import { readToolhostError } from '../../src/services/toolhost';
import { failure, sendJson, useScriptedServer } from '../support/http-server';

const scripted = useScriptedServer<HttpClient>();

function client(): HttpClient {
  const c = new HttpClient({
    service: 'toolhost',
    baseUrl: scripted.server.url,
    retries: 2,
    retryDelayMs: 5,
    timeoutMs: 300,
    readError: readToolhostError,
  });
  scripted.track(c);
  return c;
}

/** Answers only from the third request on: the first two time out. */
function silentTwice(): void {
  scripted.server.answer = (res, attempt) => {
    if (attempt > 2) sendJson(res, 200, { data: { ok: true } });
  };
}

describe('a request that timed out', () => {
  it('a POST is sent once and reported as not answered in time', async () => {
    silentTwice();
    const error = await failure(client().json('POST', '/deployment', z.unknown(), { body: {} }));
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toBe('The toolhost service did not answer in time.');
    expect(scripted.server.requests).toBe(1);
  });

  it('a POST answered 503 is sent once too; a GET answered 503 is sent again (the server counts retries)', async () => {
    scripted.server.answer = (res, attempt) =>
      attempt <= 2 ? sendJson(res, 503, { detail: 'busy' }) : sendJson(res, 200, { data: { ok: true } });
    await failure(client().json('POST', '/deployment', z.unknown(), { body: {} }));
    expect(scripted.server.requests).toBe(1);
    scripted.server.reset();
    expect(await client().json('GET', '/deployment', z.unknown())).toEqual({ data: { ok: true } });
    expect(scripted.server.requests).toBe(3);
  });
});
