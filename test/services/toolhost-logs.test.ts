/** The logs API client against the toolhost sandbox over real HTTPS, plus its NDJSON error line. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { emitLogLines } from '@deckhand/sandbox/toolhost/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/core/errors';
import {
  type LogEntry,
  parseLogsCursor,
  type ToolhostClient,
  ToolhostClientFactory,
} from '../../src/services/toolhost';
import { useToolhostSandboxClient } from '../support/toolhost-sandbox-client';
import { waitFor } from '../support/wait';

let sandbox: ToolhostSandbox;
let mytool: ToolhostClient;

useToolhostSandboxClient({ tool: 'mytool', timeoutMs: 10_000 }, (started) => {
  ({ sandbox, client: mytool } = started);
});

const emit = (job: string, lines: string[]) => emitLogLines(sandbox.ctx, 'mytool', job, lines);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('job logs (paged)', () => {
  it('reads a job’s entries oldest first, newest first, and within since/until', async () => {
    emit('reader', ['one', 'two']);
    await pause(20);
    const middle = new Date().toISOString();
    await pause(20);
    emit('reader', ['three', 'four']);
    const all = await mytool.logs.jobLogs('reader');
    expect(all.logs.map((e) => e.message)).toEqual(['one', 'two', 'three', 'four']);
    expect(all.next).toBeUndefined();
    expect(all.logs[0]).toMatchObject({ pod: expect.stringMatching(/^reader-/), container: 'reader' });
    const newest = await mytool.logs.jobLogs('reader', { direction: 'newest_first', lines: 3 });
    expect(newest.logs.map((e) => e.message)).toEqual(['four', 'three', 'two']);
    const since = await mytool.logs.jobLogs('reader', { since: middle });
    expect(since.logs.map((e) => e.message)).toEqual(['three', 'four']);
    const until = await mytool.logs.jobLogs('reader', { since: '2020-01-01', until: middle });
    expect(until.logs.map((e) => e.message)).toEqual(['one', 'two']);
    await expect(mytool.logs.jobLogs('reader', { since: '10m', until: '0s' })).resolves.toMatchObject({
      logs: expect.any(Array),
    });
    await expect(mytool.logs.jobLogs('nobody-wrote-here')).resolves.toEqual({ logs: [] });
  });

  it('follows next.url page by page, bucket_offset included, without losing or repeating entries', async () => {
    const messages = Array.from({ length: 6_000 }, (_, i) => `line ${i}`);
    emit('chatty', messages); // all in the same millisecond: the cursor needs bucket_offset
    const first = await mytool.logs.jobLogs('chatty');
    expect(first.next).toBeDefined();
    expect(first.next!.query).toMatchObject({ direction: 'oldest_first', lines: 0 });
    expect(first.next!.query.bucket_offset).toBe(first.logs.length);
    const second = await mytool.logs.jobLogs('chatty', first.next!.query);
    expect(second.next).toBeUndefined();
    expect([...first.logs, ...second.logs].map((e) => e.message)).toEqual(messages);
  });

  it('parses a cursor URL into the next query, keeping unknown parameters', () => {
    const cursor = parseLogsCursor(
      '/logs/v1/tool/t/job/j/logs?lines=20&direction=newest_first&since=2026-08-20T10:00:00Z&until=0s&bucket_offset=3&shard=b',
    );
    expect(cursor.query).toEqual({
      lines: 20,
      direction: 'newest_first',
      since: '2026-08-20T10:00:00Z',
      until: '0s',
      bucket_offset: 3,
      extra: { shard: 'b' },
    });
  });

  it('shows the 422 validation messages', async () => {
    await expect(mytool.logs.jobLogs('reader', { lines: -1 })).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/^Validation error at lines/),
    });
    await expect(mytool.logs.jobLogs('reader', { since: 'yesterday' })).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('since'),
    });
  });
});

describe('job logs (stream)', () => {
  it('yields the last lines, then each new line as it is written, until aborted', async () => {
    emit('streamer', ['old 1', 'old 2', 'old 3']);
    const controller = new AbortController();
    const seen: LogEntry[] = [];
    const streaming = (async () => {
      for await (const entry of mytool.logs.stream('streamer', { lines: 2, signal: controller.signal })) {
        seen.push(entry);
        if (entry.message === 'new 2') controller.abort();
      }
    })();
    await waitFor(() => seen.length >= 2);
    emit('streamer', ['new 1']);
    await waitFor(() => seen.length >= 3);
    emit('streamer', ['new 2']);
    await streaming;
    expect(seen.map((e) => e.message)).toEqual(['old 2', 'old 3', 'new 1', 'new 2']);
  });

  it('shows the 422 of a bad query', async () => {
    const run = async () => {
      for await (const _ of mytool.logs.stream('streamer', { since: 'soon' })) break;
    };
    await expect(run()).rejects.toMatchObject({ status: 422 });
  });
});

describe('writing job events', () => {
  it('writes the four kinds of entry, which then appear in the job’s logs', async () => {
    const at = (s: number) => new Date(Date.now() - 60_000 + s * 1_000).toISOString();
    const result = await mytool.logs.write([
      { type: 'job-created', job_name: 'audited', user_name: 'alice', datetime: at(0) },
      { type: 'job-updated', job_name: 'audited', message: 'cmd changed', datetime: at(1) },
      { type: 'job-restarted', job_name: 'audited', datetime: at(2) },
      { type: 'job-deleted', job_name: 'audited', user_name: 'bob' },
    ]);
    expect(result).toEqual({ status: 'OK' });
    const page = await mytool.logs.jobLogs('audited');
    expect(page.logs.map((e) => e.message)).toEqual([
      'Job audited created by alice',
      'cmd changed',
      'Job audited restarted',
      'Job audited deleted by bob',
    ]);
    expect(page.logs[0]).toMatchObject({ pod: '', container: '' });
  });

  it('shows the 422 of an invalid entry', async () => {
    await expect(
      mytool.logs.write([{ type: 'job-created', job_name: 'x', datetime: 'not a time' }]),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('Validation error at 0 -> datetime'),
    });
  });

  it('answers health and metrics without authentication', async () => {
    await expect(mytool.logs.healthz()).resolves.toEqual({ status: 'OK' });
    await expect(mytool.logs.metrics()).resolves.toEqual(expect.any(String));
  });
});

describe('stream errors (scripted server)', () => {
  let server: Server;
  let scripted: ToolhostClientFactory;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('{"pod":"p","container":"c","datetime":"2026-08-20T10:00:00.000000Z","message":"a"}\n');
      setTimeout(() => res.end('{"messages":{"info":[],"warning":[],"error":["Loki query failed"]}}\n'), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    scripted = new ToolhostClientFactory({
      internalUrl: url,
      certificates: { mytool: { cert: '', key: '' } },
    });
  });

  afterAll(async () => {
    await scripted.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('yields the entries before the error line, then throws its message', async () => {
    const seen: string[] = [];
    const error = await (async () => {
      for await (const entry of scripted.forTool('mytool').logs.stream('j')) seen.push(entry.message);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 500, message: 'Loki query failed' });
  });
});
