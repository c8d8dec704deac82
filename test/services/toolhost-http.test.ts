/**
 * The shared HTTP layer against a tiny local server: retries of idempotent calls only, Retry-After,
 * timeouts and refused connections, error bodies kept, NDJSON read incrementally. Plus the
 * toolhost error-body reader on each API's shape.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UnreachableError, UpstreamError } from '../../src/core/errors';
import { readToolhostError } from '../../src/services/toolhost';
import { useToolhostHttpRig } from '../support/toolhost-http-rig';

const rig = useToolhostHttpRig((req) => ({ method: req.method ?? '', url: req.url ?? '' }), 2_000);
const { attempts, client } = rig;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const Ok = z.object({ ok: z.boolean() });

describe('HttpClient retries', () => {
  it('retries a GET on 5xx and succeeds', async () => {
    rig.handler = (_req, res, n) =>
      n < 3 ? json(res, 503, { error: ['busy'] }) : json(res, 200, { ok: true });
    await expect(client().json('GET', '/x', Ok)).resolves.toEqual({ ok: true });
    expect(attempts).toHaveLength(3);
  });

  it('retries a PUT (idempotent) but never a POST, and keeps the 500 body message of the POST', async () => {
    rig.handler = (_req, res) => json(res, 500, { error: ['database is on fire'] });
    const post = client().json('POST', '/x', Ok, { body: { a: 1 } });
    await expect(post).rejects.toMatchObject({ status: 500, message: 'database is on fire' });
    expect(attempts).toHaveLength(1);
    attempts.length = 0;
    rig.handler = (_req, res, n) => (n === 1 ? json(res, 502, {}) : json(res, 200, { ok: true }));
    await expect(client().json('PUT', '/x', Ok)).resolves.toEqual({ ok: true });
    expect(attempts).toHaveLength(2);
  });

  it("keeps the service's message once GET retries are exhausted", async () => {
    rig.handler = (_req, res) => json(res, 500, { messages: { error: ['still broken'] } });
    const error = await client()
      .json('GET', '/x', Ok)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 500, message: 'still broken', code: 'upstream.500' });
    expect(attempts).toHaveLength(3);
  });

  it('does not retry a 4xx', async () => {
    rig.handler = (_req, res) => json(res, 404, { error: ['nope'] });
    await expect(client().json('GET', '/x', Ok)).rejects.toMatchObject({ status: 404, message: 'nope' });
    expect(attempts).toHaveLength(1);
  });

  it('honours Retry-After', async () => {
    rig.handler = (_req, res, n) =>
      n === 1
        ? json(res, 429, { error: ['slow down'] }, { 'retry-after': '1' })
        : json(res, 200, { ok: true });
    const started = Date.now();
    await expect(client({ retryDelayMs: 1 }).json('GET', '/x', Ok)).resolves.toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(attempts).toHaveLength(2);
  });
});

describe('HttpClient transport failures', () => {
  it('turns a timeout into UnreachableError', async () => {
    rig.handler = (_req, res) => setTimeout(() => json(res, 200, { ok: true }), 1_000).unref();
    const error = await client({ timeoutMs: 150, retries: 0 })
      .json('GET', '/slow', Ok)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toMatch(/did not answer in time/);
  });

  it('turns a refused connection into UnreachableError (after retrying the GET)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const c = client({ baseUrl: `http://127.0.0.1:${port}` });
    const error = await c.json('GET', '/x', Ok).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toMatch(/cannot be reached/);
    await expect(c.json('POST', '/x', Ok)).rejects.toBeInstanceOf(UnreachableError);
  });

  it('reports an answer that does not match the schema as a 502', async () => {
    rig.handler = (_req, res) => json(res, 200, { ok: 'yes' });
    await expect(client().json('GET', '/x', Ok)).rejects.toMatchObject({ status: 502 });
  });

  it('keeps a bare JSON string error body (builds bad JSON)', async () => {
    rig.handler = (_req, res) => json(res, 400, 'code=400, message=Syntax error: offset=1');
    await expect(client().json('POST', '/x', Ok)).rejects.toMatchObject({
      status: 400,
      message: 'code=400, message=Syntax error: offset=1',
    });
  });
});

describe('HttpClient.lines', () => {
  it('yields NDJSON lines as they arrive, across chunk boundaries', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    rig.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('{"line":"one"}\n{"line":"t');
      void gate.then(() => {
        res.write('wo"}\r\n\n{"line":"three"}');
        res.end();
      });
    };
    const seen: string[] = [];
    for await (const line of client().lines('/logs')) {
      seen.push(line);
      if (seen.length === 1) release(); // the second chunk is only sent after the first line was read
    }
    expect(seen).toEqual(['{"line":"one"}', '{"line":"two"}', '{"line":"three"}']);
  });

  it('ends quietly when aborted mid-stream, dropping lines already buffered', async () => {
    rig.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('{"line":"first"}\n{"line":"second"}\n{"line":"third"}\n');
    };
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const line of client().lines('/logs', { signal: controller.signal })) {
      seen.push(line);
      controller.abort();
    }
    expect(seen).toEqual(['{"line":"first"}']);
  });

  it('waits for a follow stream that answers late when its headers timeout is off', async () => {
    rig.handler = (_req, res) =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('{"line":"late"}\n');
      }, 1_500).unref();
    const c = client({ timeoutMs: 200 });
    const seen: string[] = [];
    for await (const line of c.lines('/logs', { headersTimeoutMs: 0 })) seen.push(line);
    expect(seen).toEqual(['{"line":"late"}']);
  });

  it('throws the error of a failed stream request with its message', async () => {
    rig.handler = (_req, res) => json(res, 404, { error: ['no such build'] });
    const run = async () => {
      for await (const _ of client().lines('/logs')) {
        // nothing
      }
    };
    await expect(run()).rejects.toMatchObject({ status: 404, message: 'no such build' });
  });
});

describe('readToolhostError', () => {
  it.each([
    ['builds/jobs/envvars {"error":[…]}', { error: ['a', 'b'] }, 'a\nb'],
    ['echo 401', { message: 'Unauthorized' }, 'Unauthorized'],
    ['bare JSON string', 'Syntax error', 'Syntax error'],
    [
      'components/logs envelope',
      { messages: { info: [], warning: ['beta'], error: ['Validation error at a -> b: bad'] } },
      'Validation error at a -> b: bad',
    ],
    [
      'FastAPI 422',
      {
        detail: [
          { loc: ['body', 'name'], msg: 'String should match pattern', type: 'string_pattern_mismatch' },
          { loc: ['body', 'health_check', 'path'], msg: 'Field required', type: 'missing' },
          { loc: [], msg: 'Bad body', type: 'x' },
        ],
      },
      'field name: String should match pattern\nfield health_check.path: Field required\nBad body',
    ],
    ['FastAPI string detail', { detail: 'Not Found' }, 'Not Found'],
    [
      'an unknown image, with the command that lists the known ones',
      { error: ["No such image 'nosuchimage'"] },
      'There is no image `nosuchimage`; /jobs images lists the ones a job can use.',
    ],
    [
      'FastAPI 422 on a union body (only the member of the job type sent)',
      {
        detail: [
          { loc: ['body', 'NewOneOffJob', 'cmd'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'NewScheduledJob', 'cmd'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'NewScheduledJob', 'schedule'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'NewScheduledJob', 'job_type'], msg: "Input should be 'scheduled'", type: 'x' },
          { loc: ['body', 'NewContinuousJob', 'cmd'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'NewContinuousJob', 'job_type'], msg: "Input should be 'continuous'", type: 'x' },
        ],
      },
      'field cmd: Field required',
    ],
  ])('reads %s', (_name, body, expected) => {
    expect(readToolhostError(400, body)).toBe(expected);
  });

  it('gives undefined for bodies without a message', () => {
    expect(readToolhostError(500, { messages: { error: [] } })).toBeUndefined();
    expect(readToolhostError(500, undefined)).toBeUndefined();
    expect(readToolhostError(500, [1, 2])).toBeUndefined();
  });
});
