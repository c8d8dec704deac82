/** The jobs client against the toolhost sandbox over real HTTPS, plus NDJSON edge cases on a local server. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { untrustedClientCert } from '@deckhand/sandbox/toolhost/certs';
import { emitLogLines } from '@deckhand/sandbox/toolhost/jobs';
import { seedJobsLogsEnvvars } from '@deckhand/sandbox/toolhost/seed-jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, UpstreamError } from '../../src/core/errors';
import {
  type LogEntry,
  type NewJob,
  type ToolhostClient,
  ToolhostClientFactory,
} from '../../src/services/toolhost';
import { useToolhostSandboxClient } from '../support/toolhost-sandbox-client';
import { waitFor } from '../support/wait';

let sandbox: ToolhostSandbox;
let factory: ToolhostClientFactory;
let mytool: ToolhostClient;

useToolhostSandboxClient({ tool: 'mytool', timeoutMs: 5_000 }, (started) => {
  ({ sandbox, factory, client: mytool } = started);
});

const webJob: NewJob = {
  job_type: 'continuous',
  name: 'api-server',
  cmd: 'python3 app.py',
  imagename: 'python3.11',
  filelog: false,
  port: 8000,
  health_check: { type: 'http', path: '/healthz' },
};

describe('seeded jobs', () => {
  it('lists and shows the seeded jobs of both tools, with their states and log history', async () => {
    seedJobsLogsEnvvars(sandbox.ctx); // idempotent: whether or not the sandbox seeds them itself
    const jobs = await mytool.jobs.list();
    expect(jobs.map((j) => j.name)).toEqual(expect.arrayContaining(['web', 'daily-report', 'migrate-db']));
    const report = await mytool.jobs.show('daily-report');
    expect(report).toMatchObject({ job_type: 'scheduled', schedule: '@daily' });
    expect(report.status?.short).toBeDefined();
    expect((await mytool.jobs.show('migrate-db')).status?.short).toBe('succeeded');
    const backfill = await factory.forTool('demo').jobs.show('backfill');
    expect(backfill).toMatchObject({ job_type: 'one-off', status: { short: 'failed' } });
    const history = await collect(mytool.jobs.logs('daily-report', { lines: 3 }));
    expect(history).toHaveLength(3);
    const page = await mytool.logs.jobLogs('web', { since: '1h', lines: 5 });
    expect(page.logs).toHaveLength(5);
  });
});

describe('images, quotas, health', () => {
  it('lists images and quota categories; health and metrics need no auth', async () => {
    const images = await mytool.jobs.images();
    expect(images.map((i) => i.shortname)).toContain('python3.11');
    const quota = await mytool.jobs.quotas();
    expect(quota.categories.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Running jobs', 'Per-job limits', 'Job definitions']),
    );
    await expect(mytool.jobs.healthz()).resolves.toEqual({ status: 'OK', message: 'OK' });
    await expect(mytool.jobs.metrics()).resolves.toEqual(expect.any(String));
  });
});

describe('job lifecycle', () => {
  it('creates a continuous job, lists it with and without unset fields, shows it', async () => {
    const job = await mytool.jobs.create(webJob);
    expect(job).toMatchObject({ name: 'api-server', job_type: 'continuous', port: 8000 });
    const full = await mytool.jobs.list();
    const listed = full.find((j) => j.name === 'api-server')!;
    expect(listed.status?.short).toMatch(/pending|running/);
    expect(listed.memory).toBeTruthy();
    const defined = (await mytool.jobs.list({ includeUnset: false })).find((j) => j.name === 'api-server')!;
    expect(defined.status).toBeUndefined();
    expect(defined.memory).toBeUndefined();
    expect(defined.job_type).toBe('continuous');
    const running = await waitFor(async () => {
      const shown = await mytool.jobs.show('api-server');
      return shown.status?.short === 'running' ? shown : undefined;
    });
    expect(running.health_check).toEqual({ type: 'http', path: '/healthz' });
  });

  it('runs a one-off job to completion and a scheduled job with its actual schedule', async () => {
    await mytool.jobs.create({
      job_type: 'one-off',
      name: 'once',
      cmd: './migrate.sh',
      imagename: 'python3.11',
      filelog: false,
    });
    const done = await waitFor(async () => {
      const job = await mytool.jobs.show('once');
      return job.status?.short === 'succeeded' ? job : undefined;
    });
    expect(done.job_type).toBe('one-off');
    const scheduled = await mytool.jobs.create({
      job_type: 'scheduled',
      name: 'hourly',
      cmd: './report.sh',
      imagename: 'python3.11',
      schedule: '@hourly',
      timeout: 120,
    });
    expect(scheduled).toMatchObject({ job_type: 'scheduled', schedule: '@hourly', timeout: 120 });
    expect(scheduled.schedule_actual).toMatch(/^\d+ \* \* \* \*$/);
    await expect(mytool.jobs.restart('hourly')).resolves.toEqual(expect.any(Array));
  });

  it('refuses a duplicate (409), a bad name or image (400), and a schema violation (422, by field)', async () => {
    await expect(mytool.jobs.create(webJob)).rejects.toMatchObject({
      status: 409,
      message: 'A job with the name api-server already exists',
    });
    await expect(mytool.jobs.create({ ...webJob, name: 'Bad_Name' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Invalid job name'),
    });
    await expect(
      mytool.jobs.create({ ...webJob, name: 'noimage', imagename: 'cobol77' }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'There is no image `cobol77`; /jobs images lists the ones a job can use.',
    });
    const noCmd = { job_type: 'one-off', name: 'nocmd', imagename: 'python3.11' } as unknown as NewJob;
    await expect(mytool.jobs.create(noCmd)).rejects.toMatchObject({
      status: 422,
      message: 'field cmd: Field required',
    });
    const retrying = { ...webJob, name: 'retrying', retry: 2 } as unknown as NewJob;
    await expect(mytool.jobs.create(retrying)).rejects.toMatchObject({
      status: 422,
      message: 'field retry: Extra inputs are not permitted',
    });
  });

  it('updates or creates with PATCH, reporting whether anything changed', async () => {
    const same = await mytool.jobs.update(webJob);
    expect(same).toEqual({ changed: false, messages: ['Job api-server is already up to date'] });
    const changed = await mytool.jobs.update({ ...webJob, cmd: 'python3 app.py --verbose' });
    expect(changed.changed).toBe(true);
    const created = await mytool.jobs.update({ ...webJob, name: 'patched-in' });
    expect(created).toEqual({ changed: true, messages: ['Job patched-in created in storage and runtime'] });
  });

  it('restarts, deletes, and names the job in every 404', async () => {
    await expect(mytool.jobs.restart('api-server')).resolves.toEqual(expect.any(Array));
    await expect(mytool.jobs.restart('once')).rejects.toMatchObject({
      status: 400,
      message: 'Unable to restart a one-off job',
    });
    await expect(mytool.jobs.restart('ghost')).rejects.toThrow(
      new NotFoundError('Job ghost not found for tool mytool.'),
    );
    await expect(mytool.jobs.show('ghost')).rejects.toThrow('Job ghost not found for tool mytool.');
    await mytool.jobs.delete('patched-in');
    await expect(mytool.jobs.delete('patched-in')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('job logs', () => {
  it('reads the last lines, and follows new lines as the job prints them', async () => {
    // 404 until the pod printed something.
    await waitFor(async () => (await collect(mytool.jobs.logs('api-server')).catch(() => [])).length >= 2);
    const some = await collect(mytool.jobs.logs('api-server', { lines: 2 }));
    expect(some).toHaveLength(2);
    expect(some[0]).toMatchObject({
      pod: expect.stringMatching(/^api-server-/),
      datetime: expect.any(String),
    });

    const controller = new AbortController();
    const seen: LogEntry[] = [];
    const following = (async () => {
      for await (const entry of mytool.jobs.logs('api-server', {
        follow: true,
        lines: 1,
        signal: controller.signal,
      })) {
        seen.push(entry);
        if (entry.message === 'marker two') controller.abort();
      }
    })();
    await waitFor(() => seen.length >= 1);
    emitLogLines(sandbox.ctx, 'mytool', 'api-server', ['marker one']);
    await waitFor(() => seen.some((e) => e.message === 'marker one'));
    emitLogLines(sandbox.ctx, 'mytool', 'api-server', ['marker two']);
    await following;
    expect(seen.map((e) => e.message).filter((m) => m.startsWith('marker'))).toEqual([
      'marker one',
      'marker two',
    ]);
  });

  it('explains a 404 (filelog job) and keeps the 400 of too many lines', async () => {
    await mytool.jobs.create({
      job_type: 'continuous',
      name: 'filelogger',
      cmd: 'python3 bot.py',
      imagename: 'python3.11',
      filelog: true,
    });
    const error = await collect(mytool.jobs.logs('filelogger')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(
      /^No logs for job filelogger of tool mytool: .*file logging enabled/,
    );
    await expect(collect(mytool.jobs.logs('api-server', { lines: 6000 }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('over limit of 5000'),
    });
  });
});

describe('flush and auth errors', () => {
  it('deletes every job', async () => {
    await mytool.jobs.flush();
    expect(await mytool.jobs.list()).toEqual([]);
  });

  it("shows the gateway's 401 for an untrusted certificate", async () => {
    const rogue = new ToolhostClientFactory({
      internalUrl: sandbox.internalUrl,
      ca: sandbox.ca,
      certificates: { mytool: await untrustedClientCert('mytool') },
      retries: 0,
    });
    try {
      await expect(rogue.forTool('mytool').jobs.list()).rejects.toMatchObject({
        status: 401,
        message: expect.stringContaining('needs the tool client certificate'),
      });
    } finally {
      await rogue.close();
    }
  });
});

describe('NDJSON edge cases (scripted server)', () => {
  let server: Server;
  let client: ToolhostClient;
  let scripted: ToolhostClientFactory;
  let body = '';

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    scripted = new ToolhostClientFactory({
      internalUrl: url,
      certificates: { mytool: { cert: '', key: '' } },
    });
    client = scripted.forTool('mytool');
  });

  afterAll(async () => {
    await scripted.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('yields the good lines, then throws the in-stream error object of the last line', async () => {
    body =
      '{"pod": "bot-1", "container": "job", "datetime": "2026-08-20T10:00:00+00:00", "message": "hello"}\n' +
      '{"pod": null, "container": null, "datetime": "2026-08-20T10:00:01+00:00", "message": "no pod"}\n' +
      '{"error": ["Error while streaming logs: Loki went away"]}\n';
    const seen: string[] = [];
    const error = await (async () => {
      for await (const entry of client.jobs.logs('bot', { follow: true })) seen.push(entry.message);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['hello', 'no pod']);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 500, message: 'Error while streaming logs: Loki went away' });
  });

  it('reports a line that is not JSON as a 502', async () => {
    body = 'Internal Server Error\n';
    await expect(collect(client.jobs.logs('bot'))).rejects.toMatchObject({ status: 502 });
  });
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
