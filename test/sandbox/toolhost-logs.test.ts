/**
 * Tests of the logs API emulator over real HTTPS with the tool's client certificate (mTLS). There is
 * no OpenAPI document of the logs API; responses are checked against zod schemas of the shapes in
 * specs/toolforge/logs-schemas.md.
 */

import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { emitLogLines } from '@deckhand/sandbox/toolhost/jobs';
import { LOGS_PAGE_SIZE } from '@deckhand/sandbox/toolhost/logs-page';
import { seedJobsLogsEnvvars } from '@deckhand/sandbox/toolhost/seed-jobs';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useToolhostEmulator } from '../support/toolhost-emulator';
import { waitFor } from '../support/wait';

const Messages = z.strictObject({
  info: z.array(z.string()),
  warning: z.array(z.string()),
  error: z.array(z.string()),
});
/** `datetime` as pydantic prints an aware UTC datetime. */
const Datetime = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
const LogEntry = z.strictObject({
  pod: z.string(),
  container: z.string(),
  datetime: Datetime,
  message: z.string(),
});
const JobsLogs = z.strictObject({
  data: z.strictObject({ logs: z.array(LogEntry), next: z.strictObject({ url: z.string() }).optional() }),
  messages: Messages,
});
const Health = z.strictObject({
  data: z.strictObject({ status: z.enum(['OK', 'ERROR']) }),
  messages: Messages,
});
const WriteResult = z.strictObject({
  data: z.strictObject({ status: z.enum(['OK', 'ERROR']) }),
  messages: Messages,
});
/** A 422 in the ApiResponse envelope (no `data`). */
const Invalid = z.strictObject({
  messages: Messages.extend({ error: z.array(z.string().startsWith('Validation error at ')).min(1) }),
});

let sandbox: ToolhostSandbox;
const T = 'logtest';

/** GETs or POSTs `path` (or an absolute URL) as `tool`; returns status and parsed JSON. */
async function call(path: string, options: { tool?: string; body?: unknown } = {}) {
  const url = path.startsWith('http') ? path : `${sandbox.internalUrl}${path}`;
  const response = await request(url, {
    method: options.body === undefined ? 'GET' : 'POST',
    dispatcher: agentFor(options.tool ?? T),
    ...(options.body !== undefined
      ? { body: JSON.stringify(options.body), headers: { 'content-type': 'application/json' } }
      : {}),
  });
  return { status: response.statusCode, json: (await response.body.json()) as unknown };
}

const logsPath = (job: string, query = '', tool = T) => `/logs/v1/tool/${tool}/job/${job}/logs${query}`;

async function page(path: string, tool = T) {
  const answer = await call(path, { tool });
  expect(answer.status).toBe(200);
  return JobsLogs.parse(answer.json).data;
}

/** Follows `next.url` from `path` until it is absent; returns every page. */
async function allPages(path: string) {
  const pages = [await page(path)];
  for (let next = pages[0]?.next; next; next = pages.at(-1)?.next) pages.push(await page(next.url));
  return pages;
}

describe('logs API emulator', () => {
  it('serves health and metrics without a certificate', async () => {
    const health = await request(`${sandbox.externalUrl}/logs/v1/healthz`);
    expect(Health.parse(await health.body.json())).toEqual({
      data: { status: 'OK' },
      messages: { info: [], warning: [], error: [] },
    });
    const metrics = await request(`${sandbox.externalUrl}/logs/metrics`);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(await metrics.body.text()).toContain('http_requests_total{handler="/logs/v1/healthz"');
  });

  it("returns the last hour of a seeded job's logs, oldest first", async () => {
    const { logs, next } = await page(logsPath('web', '', 'mytool'), 'mytool');
    expect(next).toBeUndefined();
    expect(logs.length).toBeGreaterThan(230);
    const times = logs.map((entry) => Date.parse(entry.datetime));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThanOrEqual(Date.now() - 3_600_000 - 1000);
    expect(logs[0]).toMatchObject({ pod: expect.stringMatching(/^web-\w{10}-\w{5}$/), container: 'web' });
    expect(logs[0]?.message).toMatch(/"GET \S+ HTTP\/1\.1" \d{3} \d+/);

    const newest = await page(logsPath('web', '?lines=3&direction=newest_first', 'mytool'), 'mytool');
    expect(newest.logs).toHaveLength(3);
    expect(newest.next).toBeUndefined();
    // The job keeps printing: the newest entry is at least as new as the last one seen before.
    const newestTimes = newest.logs.map((entry) => Date.parse(entry.datetime));
    expect(newestTimes).toEqual([...newestTimes].sort((a, b) => b - a));
    expect(newestTimes[0]).toBeGreaterThanOrEqual(times.at(-1) ?? 0);
  });

  it('accepts every documented form of since and until', async () => {
    const now = Date.now();
    const job = 'times';
    emitLogLines(sandbox.ctx, T, job, ['now']);
    const count = async (query: string) => (await page(logsPath(job, query))).logs.length;
    expect(await count('')).toBe(1);
    const iso = new Date(now - 60_000).toISOString();
    expect(await count(`?since=${encodeURIComponent(iso)}`)).toBe(1);
    const offset = new Date(now - 60_000 + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    expect(await count(`?since=${encodeURIComponent(offset)}`)).toBe(1);
    expect(await count(`?since=${new Date(now - 86_400_000).toISOString().slice(0, 10)}`)).toBe(1);
    for (const duration of ['10s', '30m', '1h', '1h30m', '2d', '1h0m5s'])
      expect(await count(`?since=${duration}`)).toBe(1);
    expect(await count('?since=2h&until=1h')).toBe(0);
    expect(await count(`?until=${new Date(now - 5000).toISOString().slice(0, 19)}Z`)).toBe(0);
  });

  it('answers 422 in the envelope for invalid queries', async () => {
    for (const query of [
      '?lines=-1',
      '?lines=lots',
      '?direction=sideways',
      '?since=yesterday',
      '?until=2026-13-45',
      '?since=2026-08-20T10:00:00',
      '?bucket_offset=1000000',
      '?bucket_offset=-1',
    ]) {
      const answer = await call(logsPath('web', query, 'mytool'), { tool: 'mytool' });
      expect(answer.status, query).toBe(422);
      Invalid.parse(answer.json);
    }
    const answer = await call(logsPath('web', '?lines=-1&direction=up', 'mytool'), { tool: 'mytool' });
    expect(Invalid.parse(answer.json).messages.error).toEqual([
      "Validation error at lines: Input should be greater than or equal to 0. Received value: '-1'",
      "Validation error at direction: Input should be 'oldest_first' or 'newest_first'. Received value: 'up'",
    ]);
  });

  it('pages through more lines than one answer holds, each line exactly once, both ways', async () => {
    const job = 'flood';
    const total = 2 * LOGS_PAGE_SIZE + 700;
    // Three bursts: thousands of lines share each timestamp, which bucket_offset must handle.
    for (const burst of [0, 1, 2]) {
      const size = burst === 2 ? total - 2 * 4000 : 4000;
      emitLogLines(
        sandbox.ctx,
        T,
        job,
        Array.from({ length: size }, (_, i) => `line ${burst * 4000 + i}`),
      );
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    for (const direction of ['oldest_first', 'newest_first']) {
      const pages = await allPages(logsPath(job, `?direction=${direction}`));
      expect(pages.map((p) => p.logs.length)).toEqual([LOGS_PAGE_SIZE, LOGS_PAGE_SIZE, 700]);
      const messages = pages.flatMap((p) => p.logs.map((entry) => entry.message));
      expect(new Set(messages).size).toBe(total);
      const order = messages.map((m) => Number(m.split(' ')[1]));
      expect(order).toEqual([...order].sort((a, b) => (direction === 'oldest_first' ? a - b : b - a)));
      const cursor = new URL(pages[0]?.next?.url ?? '');
      expect(cursor.pathname).toBe(logsPath(job));
      expect(cursor.searchParams.get('bucket_offset')).toMatch(/^\d+$/);
      expect(cursor.searchParams.get(direction === 'oldest_first' ? 'since' : 'until')).toMatch(/Z$/);
    }
    // `lines` is the total wanted: 7000 → pages of 5000 and 2000, the cursor carrying what is left.
    const limited = await allPages(logsPath(job, '?lines=7000'));
    expect(limited.map((p) => p.logs.length)).toEqual([LOGS_PAGE_SIZE, 2000]);
    expect(new URL(limited[0]?.next?.url ?? '').searchParams.get('lines')).toBe('2000');
    expect((await page(logsPath(job, '?lines=10'))).next).toBeUndefined();
  });

  it('streams the last lines, then every new line as it is printed', async () => {
    const job = 'stream';
    emitLogLines(
      sandbox.ctx,
      T,
      job,
      Array.from({ length: 600 }, (_, i) => `old ${i}`),
    );
    const controller = new AbortController();
    const response = await request(
      `${sandbox.internalUrl}/logs/v1/tool/${T}/job/${job}/logs_stream?lines=0`,
      {
        dispatcher: agentFor(T),
        signal: controller.signal,
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const received: z.infer<typeof LogEntry>[] = [];
    let buffer = '';
    let emitted = false;
    for await (const chunk of response.body) {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) received.push(LogEntry.parse(JSON.parse(line)));
      if (!emitted && received.length >= 500) {
        emitted = true;
        emitLogLines(sandbox.ctx, T, job, ['new 1', 'new 2']);
      }
      if (received.at(-1)?.message === 'new 2') break;
    }
    controller.abort();
    // lines=0 means the default of 500: the newest 500 old lines, then the new ones.
    expect(received).toHaveLength(502);
    expect(received[0]?.message).toBe('old 100');
    expect(received.slice(-2).map((e) => e.message)).toEqual(['new 1', 'new 2']);

    const tooMany = await call(`/logs/v1/tool/${T}/job/${job}/logs_stream?lines=5001`);
    expect(tooMany.status).toBe(422);
    Invalid.parse(tooMany.json);
  });

  it('streams a running job live (yes prints fast) until the sandbox closes', async () => {
    const local = await startToolhostSandbox({ stepMs: 5, tools: ['live'], seed: false });
    const { cert, key } = local.certFor('live');
    const agent = new Agent({ connect: { ca: local.ca, cert, key } });
    try {
      const jobs = local.ctx.jobs;
      if (!jobs) throw new Error('no jobs facade');
      jobs.applyJob('live', {
        name: 'spam',
        cmd: 'yes',
        imagename: 'tool-live/spam:latest',
        job_type: 'continuous',
      });
      const response = await request(`${local.internalUrl}/logs/v1/tool/live/job/spam/logs_stream`, {
        dispatcher: agent,
      });
      let lines = 0;
      const done = (async () => {
        for await (const chunk of response.body) lines += chunk.toString().split('\n').length - 1;
      })();
      await waitFor(() => lines > 200, 5000);
      local.ctx.timers?.close(); // what close() does first: every open stream ends
      await done;
      expect(lines).toBeGreaterThan(200);
    } finally {
      await local.close();
      await agent.close();
    }
  });

  it('writes the four kinds of job events, which then show in the job logs', async () => {
    const datetime = new Date(Date.now() - 1000).toISOString();
    const written = await call(`/logs/v1/tool/${T}/source/jobs/log`, {
      body: [
        { type: 'job-created', job_name: 'events', user_name: 'alice', datetime },
        { type: 'job-updated', job_name: 'events' },
        { type: 'job-restarted', job_name: 'events', message: 'restarted by the deploy bot' },
        { type: 'job-deleted', job_name: 'events', user_name: 'bob' },
      ],
    });
    expect(written.status).toBe(200);
    expect(WriteResult.parse(written.json).data.status).toBe('OK');
    const { logs } = await page(logsPath('events'));
    expect(logs.map((entry) => entry.message)).toEqual([
      'Job events created by alice',
      'Job events updated',
      'restarted by the deploy bot',
      'Job events deleted by bob',
    ]);
    expect(logs[0]).toMatchObject({ pod: '', container: '' });

    const legacy = await call(`/logs/v1/tool/${T}/source/jobs-api/log`, {
      body: { message: 'Job events recreated', job_name: 'events' },
    });
    expect(WriteResult.parse(legacy.json).data.status).toBe('OK');

    for (const bad of [
      [{ type: 'job-exploded', job_name: 'events' }],
      [{ type: 'job-created' }],
      [{ type: 'job-created', job_name: 'events', datetime: '2026-08-20T10:00:00' }],
      { type: 'job-created', job_name: 'events' },
    ]) {
      const answer = await call(`/logs/v1/tool/${T}/source/jobs/log`, { body: bad });
      expect(answer.status, JSON.stringify(bad)).toBe(422);
      Invalid.parse(answer.json);
    }
  });

  it('shows the events the jobs API writes about a job', async () => {
    const jobs = sandbox.ctx.jobs;
    if (!jobs) throw new Error('no jobs facade');
    jobs.restartJob('mytool', 'web');
    const { logs } = await page(logsPath('web', '?direction=newest_first&lines=50', 'mytool'), 'mytool');
    expect(logs).toContainEqual(
      expect.objectContaining({ pod: '', container: '', message: 'Job web restarted' }),
    );
  });

  it("refuses another tool's logs", async () => {
    const answer = await call(logsPath('web', '', 'mytool'));
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({
      messages: { info: [], warning: [], error: [expect.stringContaining("'mytool'")] },
    });
  });
});
const { agentFor } = useToolhostEmulator({ stepMs: 10, tools: [T] }, (started) => {
  sandbox = started;
  seedJobsLogsEnvvars(started.ctx);
});
