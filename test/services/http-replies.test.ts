/**
 * The shared HTTP layer on answers that are not the service's own: a proxy's HTML error page, a
 * `Retry-After` longer than the request's budget, and a body broken off before its Content-Length.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UnreachableError, UpstreamError } from '../../src/core/errors';
import { retryAfterMs } from '../../src/services/http';
import { useToolhostHttpRig } from '../support/toolhost-http-rig';

const rig = useToolhostHttpRig((req) => ({ method: req.method ?? '', range: req.headers.range }), 3_000);
const { attempts, client } = rig;

const Ok = z.object({ ok: z.boolean() });
const OK_BODY = JSON.stringify({ ok: true, padding: 'x'.repeat(200) });

/** Sends headers announcing the whole body, 10 bytes of it, then closes the connection. */
function brokenOff(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(OK_BODY.length) });
  res.write(OK_BODY.slice(0, 10), () => res.socket?.destroy());
}

const HTML_503 =
  '<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503</h1></center><hr><center>nginx</center></body></html>';

describe('an HTML error page', () => {
  it('is never echoed: "toolhost service answered 503 Service Unavailable"', async () => {
    rig.handler = (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end(HTML_503);
    };
    const error = await client({ retries: 0 })
      .json('GET', '/x', Ok)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({
      status: 503,
      message: 'The toolhost service answered 503 Service Unavailable.',
    });
    // Also without a content type, and through errorFor (clients that read raw answers).
    expect(client().errorFor(502, `  <!DOCTYPE html>${HTML_503}`).message).toBe(
      'The toolhost service answered 502 Bad Gateway.',
    );
    // Positive control: a short plain-text body is still the service's own message.
    expect(client().errorFor(400, 'code=400, message=Syntax error').message).toBe(
      'code=400, message=Syntax error',
    );
  });
});

describe('Retry-After', () => {
  it('longer than the budget: the GET fails at once, saying how long the service asked to wait', async () => {
    rig.handler = (_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '3600' });
      res.end(JSON.stringify({ error: ['maintenance'] }));
    };
    const error = await client()
      .json('GET', '/x', Ok)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toBe('The toolhost service asked us to wait 60 minutes; try later.');
    expect(attempts).toHaveLength(1);
  });

  it('as an HTTP-date, on a 429 to a POST: the same, in minutes rounded up', async () => {
    rig.handler = (_req, res) => {
      res.writeHead(429, { 'retry-after': new Date(Date.now() + 90_000).toUTCString() });
      res.end();
    };
    await expect(client().json('POST', '/x', Ok, { body: {} })).rejects.toMatchObject({
      status: 429,
      message: 'The toolhost service asked us to wait 2 minutes; try later.',
    });
    expect(attempts).toHaveLength(1);
  });

  it('within the budget: waited for and retried (positive control)', async () => {
    rig.handler = (_req, res, n) => {
      res.writeHead(n === 1 ? 429 : 200, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(n === 1 ? '{}' : JSON.stringify({ ok: true }));
    };
    await expect(client().json('GET', '/x', Ok)).resolves.toEqual({ ok: true });
    expect(attempts).toHaveLength(2);
  });

  it('reads delay-seconds and HTTP-dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:30 GMT', now)).toBe(90_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('a body broken off before its Content-Length', () => {
  it('is the connection breaking, not our failure; a POST is not sent again', async () => {
    rig.handler = (_req, res) => brokenOff(res);
    const error = await client()
      .json('POST', '/x', Ok, { body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toBe(
      'The connection to the toolhost service broke off before its whole answer arrived.',
    );
    expect(attempts.filter((a) => a.method === 'POST')).toHaveLength(1);
  });

  it('a GET is sent again and succeeds', async () => {
    rig.handler = (_req, res, n) => {
      if (n === 1) return brokenOff(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(OK_BODY);
    };
    await expect(client().json('GET', '/x', Ok)).resolves.toEqual({ ok: true });
    expect(attempts.length).toBeGreaterThanOrEqual(2);
  });

  it('a GET that keeps breaking off ends as UnreachableError after its retries', async () => {
    rig.handler = (_req, res) => brokenOff(res);
    const error = await client()
      .json('GET', '/x', Ok)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toContain('broke off before its whole answer arrived');
  });
});
