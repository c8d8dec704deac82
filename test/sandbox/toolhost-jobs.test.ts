/**
 * Contract and lifecycle tests of the jobs API emulator, over real HTTPS with the tool's client
 * certificate (mTLS); every response is checked against jobs-openapi.yaml, with the documented
 * deviations of the real service listed explicitly.
 */

import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { emitLogLines, JOB_STEPS, SPAM_LINES_PER_STEP } from '@deckhand/sandbox/toolhost/jobs';
import { SEEDED_JOBS, seedJobsLogsEnvvars } from '@deckhand/sandbox/toolhost/seed-jobs';
import { Agent, request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Exchange,
  expectConforms,
  type KnownDeviation,
  type LoadedSpec,
  loadSpec,
  type RecordOptions,
  recordExchange,
  TOOLFORGE_DEVIATIONS,
} from '../support/openapi';
import { useToolhostEmulator } from '../support/toolhost-emulator';
import { waitFor } from '../support/wait';

/**
 * Body deviations of the real jobs API from its spec (J `tjf/api/models.py`), beyond the helper's:
 * - `status` is a `oneOf` of three schemas that all accept the same object, so no status can ever
 *   match exactly one: checked with `anyOf` here;
 * - the API sends `health_check: null` (continuous job without one) and `previous_schedule: null`
 *   (scheduled job never run), which the spec types as object / string;
 * - quota items of "Per-job limits" have `used: null`.
 */
const STATUS = {
  allOf: [
    { $ref: '#/components/schemas/CommonJobStatus' },
    {
      type: 'object',
      properties: {
        short: { $ref: '#/components/schemas/StatusShort' },
        messages: { type: 'array', items: { type: 'string' } },
        previous_schedule: { type: ['string', 'null'] },
        next_schedule: { type: ['string', 'null'] },
      },
    },
  ],
};
const JOB_BASE = {
  allOf: [
    { $ref: '#/components/schemas/CommonJob' },
    {
      type: 'object',
      properties: {
        image: { type: 'string' },
        image_state: { type: 'string' },
        status_short: { type: 'string' },
        status_long: { type: 'string' },
        status: STATUS,
      },
    },
  ],
};
const DEFINED_JOB = {
  oneOf: [
    {
      allOf: [
        JOB_BASE,
        { type: 'object', required: ['job_type'], properties: { job_type: { const: 'one-off' } } },
      ],
    },
    {
      allOf: [
        JOB_BASE,
        {
          type: 'object',
          required: ['job_type', 'schedule'],
          properties: {
            job_type: { const: 'scheduled' },
            schedule: { type: 'string' },
            schedule_actual: { type: 'string' },
            timeout: { type: ['integer', 'null'], minimum: 0 },
          },
        },
      ],
    },
    {
      allOf: [
        JOB_BASE,
        {
          type: 'object',
          required: ['job_type'],
          properties: {
            job_type: { const: 'continuous' },
            continuous: { type: 'boolean' },
            replicas: { type: ['integer', 'null'], minimum: 0 },
            port: { type: ['integer', 'null'], minimum: 1, maximum: 65535 },
            port_protocol: { enum: ['tcp', 'udp'] },
            health_check: {
              anyOf: [
                { type: 'null' },
                { $ref: '#/components/schemas/ScriptHealthCheck' },
                { $ref: '#/components/schemas/HttpHealthCheck' },
              ],
            },
          },
        },
      ],
    },
  ],
};
const MESSAGES = { $ref: '#/components/schemas/ResponseMessages' };
const JOB_RESPONSE = {
  type: 'object',
  required: ['job'],
  properties: { job: DEFINED_JOB, messages: MESSAGES },
};
const JOB_LIST = {
  type: 'object',
  required: ['jobs'],
  properties: { jobs: { type: 'array', items: DEFINED_JOB }, messages: MESSAGES },
};
const QUOTA = {
  type: 'object',
  required: ['quota'],
  properties: {
    quota: {
      type: 'object',
      properties: {
        categories: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'items'],
            properties: {
              name: { type: 'string' },
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['name', 'limit'],
                  properties: {
                    name: { type: 'string' },
                    limit: { type: 'string' },
                    used: { type: ['string', 'null'] },
                  },
                },
              },
            },
          },
        },
      },
    },
    messages: MESSAGES,
  },
};
const REASON = 'real API (J tjf/api/models.py): unsatisfiable status oneOf, nulls the spec types as non-null';
const ALLOW: KnownDeviation[] = [
  { operation: 'list', status: 200, kind: 'body', schema: JOB_LIST, reason: REASON },
  { operation: 'show', status: 200, kind: 'body', schema: JOB_RESPONSE, reason: REASON },
  {
    operation: 'create',
    status: 201,
    kind: 'undeclared-status',
    schema: JOB_RESPONSE,
    reason: `201: ${REASON}`,
  },
  { operation: 'quotas', status: 200, kind: 'body', schema: QUOTA, reason: 'per-job limits have used: null' },
  ...TOOLFORGE_DEVIATIONS.jobs,
];

let sandbox: ToolhostSandbox;
let spec: LoadedSpec;
const T = 'jobtest';
const JOBS = `/jobs/v1/tool/${T}/jobs`;

/**
 * Calls the internal API as `tool` and checks the answer against the spec. Requests are checked too,
 * except when `checkRequest` is false: bodies invalid on purpose, and legacy bodies without
 * `job_type` (the spec's request `oneOf` cannot tell a one-off from a continuous body without it,
 * though the real API accepts them; the CLI always sends `job_type`).
 */
async function call(
  path: string,
  options: RecordOptions & { tool?: string; checkRequest?: boolean } = {},
): Promise<Exchange> {
  const { tool = T, checkRequest = true, ...rest } = options;
  const exchange = await recordExchange(sandbox.internalUrl, path, { ...rest, dispatcher: agentFor(tool) });
  await expectConforms(spec, checkRequest ? exchange : { ...exchange, request: undefined }, ALLOW);
  return exchange;
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the spec
type Body = Record<string, any>;
const body = (exchange: Exchange) => exchange.body as Body;
const job = async (name: string, tool = T) =>
  body(await call(`/jobs/v1/tool/${tool}/jobs/${name}`, { tool })).job as Body;
const create = (payload: Body, options: { checkRequest?: boolean } = {}) =>
  call(JOBS, { method: 'POST', body: payload, ...options });
const ONE_OFF = { job_type: 'one-off' } as const;
const logLines = (text: unknown) =>
  String(text)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Body);

beforeAll(async () => {
  spec = await loadSpec('jobs');
});

describe('jobs API emulator: reading', () => {
  it('serves health and metrics without a certificate', async () => {
    const health = await recordExchange(sandbox.externalUrl, '/jobs/v1/healthz');
    expect(body(health)).toEqual({
      health: { status: 'OK', message: 'OK' },
      messages: { info: [], warning: [], error: [] },
    });
    await expectConforms(spec, health);
    const metrics = await recordExchange(sandbox.externalUrl, '/jobs/v1/metrics');
    expect(metrics.body).toMatch(
      /http_requests_total\{handler="\/jobs\/v1\/healthz",method="GET",status="2xx"\} 1\.0/,
    );
    await expectConforms(spec, metrics);
  });

  it('lists images and quotas', async () => {
    const images = body(await call(`/jobs/v1/tool/${T}/images`));
    expect(images.images).toContainEqual({
      shortname: 'python3.11',
      image: 'docker-registry.tools.wmflabs.org/toolforge-python311-sssd-base:latest',
    });
    const quota = body(await call('/jobs/v1/tool/mytool/quotas/', { tool: 'mytool' })).quota;
    expect(quota.categories.map((c: Body) => c.name)).toEqual([
      'Running jobs',
      'Per-job limits',
      'Job definitions',
    ]);
    expect(quota.categories[2].items).toEqual([
      { name: 'Cron jobs', limit: '50', used: '1' },
      { name: 'Continuous jobs (including web services)', limit: '16', used: '1' },
    ]);
  });

  it('lists the seeded jobs with every field, or only the ones set at creation', async () => {
    const list = body(await call('/jobs/v1/tool/mytool/jobs', { tool: 'mytool' }));
    const { continuous, scheduled, oneOff } = SEEDED_JOBS.mytool;
    expect(list.jobs.map((j: Body) => j.name)).toEqual([scheduled, continuous, oneOff]);
    const [report, web, migrate] = list.jobs;
    expect(web).toMatchObject({
      job_type: 'continuous',
      cmd: 'web',
      imagename: 'tool-mytool/web:latest',
      mount: 'none',
      filelog: false,
      memory: '0.5Gi',
      cpu: '0.1',
      replicas: 1,
      health_check: null,
      status_short: 'Running',
      status: {
        short: 'running',
        messages: [],
        up_to_date: true,
        duration: expect.stringMatching(/^(23h|1d)/),
      },
    });
    expect(report).toMatchObject({
      job_type: 'scheduled',
      schedule: '@daily',
      schedule_actual: expect.stringMatching(/^\d+ \d+ \* \* \*$/),
      status_short: expect.stringMatching(/^Last schedule time: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      status: {
        short: 'succeeded',
        previous_schedule: expect.any(String),
        next_schedule: expect.any(String),
      },
    });
    expect(migrate).toMatchObject({
      job_type: 'one-off',
      status_short: 'Completed',
      status: { short: 'succeeded' },
    });
    expect(migrate.status_long).toMatch(/Pod in 'Succeeded' phase\. .*Exit code '0'\.$/);

    const given = body(await call('/jobs/v1/tool/mytool/jobs?include_unset=false', { tool: 'mytool' }));
    expect(given.jobs[0]).toEqual({
      name: scheduled,
      cmd: 'python3 report.py --daily',
      imagename: 'python3.11',
      filelog: false,
      image: 'python3.11',
      job_type: 'scheduled',
      schedule: '@daily',
    });
    expect(given.messages).toEqual({});
    const bad = await call('/jobs/v1/tool/mytool/jobs?include_unset=maybe', { tool: 'mytool' });
    expect(bad.status).toBe(422);
    expect(body(bad).detail[0]).toMatchObject({ type: 'bool_parsing', loc: ['query', 'include_unset'] });
  });

  it('shows one job, with or without a trailing slash, and 404s an unknown one', async () => {
    const web = await job('web/', 'mytool');
    expect(web.name).toBe('web');
    const missing = await call(`${JOBS}/nope`);
    expect(missing.status).toBe(404);
    expect(body(missing)).toEqual({ error: ["Job 'nope' does not exist"] });
  });

  it('rejects other tools and missing certificates as the gateway does', async () => {
    const other = await call('/jobs/v1/tool/mytool/jobs', { tool: T });
    expect(other.status).toBe(403);
    expect(body(other).error[0]).toContain("'mytool'");
    const anonymous = await recordExchange(sandbox.internalUrl, JOBS, {
      dispatcher: new Agent({ connect: { ca: sandbox.ca } }),
    });
    expect(anonymous.status).toBe(401);
    await expectConforms(spec, anonymous, ALLOW);
  });
});

describe('jobs API emulator: lifecycles', () => {
  it('runs a one-off job pending → running → succeeded, with logs', async () => {
    const created = await create({
      ...ONE_OFF,
      name: 'hello',
      cmd: './hello.sh',
      imagename: 'python3.11',
      filelog: false,
    });
    expect(created.status).toBe(201);
    expect(body(created).job).toMatchObject({
      name: 'hello',
      job_type: 'one-off',
      status: { short: 'pending' },
    });
    const seen = new Set<string>();
    await waitFor(async () => {
      const current = await job('hello');
      seen.add(current.status.short);
      return current.status_short === 'Completed';
    });
    expect(seen.has('succeeded')).toBe(true);
    const done = await job('hello');
    expect(done.status).toMatchObject({ short: 'succeeded', messages: [] });
    const logs = await call(`${JOBS}/hello/logs`);
    expect(logs.contentType).toBe('text/plain; charset=utf8');
    const lines = logLines(logs.body);
    expect(lines[0]).toEqual({
      pod: expect.stringMatching(/^hello-[a-z0-9]{5}$/),
      container: 'hello',
      datetime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      message: 'Starting: ./hello.sh',
    });
    expect(String(logs.body)).toContain('{"pod": "hello-');
    expect(lines.at(-1)?.message).toBe('Done.');
    expect(logLines((await call(`${JOBS}/hello/logs?lines=2`)).body)).toHaveLength(2);

    // A completed one-off job can be created again; anything else is a 409.
    const again = { ...ONE_OFF, name: 'hello', cmd: './hello.sh', imagename: 'python3.11' };
    expect((await create(again)).status).toBe(201);
    const dup = await create(again);
    expect(dup.status).toBe(409);
    expect(body(dup)).toEqual({ error: ['A job with the name hello already exists'] });
  });

  it('fails a one-off job whose command says so, after its retries', async () => {
    await create({
      ...ONE_OFF,
      name: 'doomed',
      cmd: 'python3 main.py || exit 1',
      imagename: 'python3.11',
      retry: 1,
    });
    await waitFor(async () => (await job('doomed')).status.short === 'failed');
    const failed = await job('doomed');
    expect(failed).toMatchObject({ status_short: 'Failed', status: { messages: ['exitcode 1'] } });
    expect(failed.status_long).toContain("Exit code '1'");
  });

  it('restarts a continuous job: restart count, new pod, new log lines', async () => {
    const payload = {
      name: 'server',
      cmd: 'python3 app.py',
      imagename: 'python3.11',
      job_type: 'continuous',
    };
    await create({ ...payload, filelog: false, port: 8080 });
    await waitFor(async () => (await job('server')).status.short === 'running');
    const before = logLines((await call(`${JOBS}/server/logs`)).body);
    expect(before[1]?.message).toContain('0.0.0.0:8080');
    const restart = await call(`${JOBS}/server/restart`, { method: 'POST' });
    expect(body(restart)).toEqual({ messages: { info: [], warning: [], error: [] } });
    await waitFor(async () => (await job('server')).status.short === 'running');
    const after = await job('server');
    expect(after.status.messages).toEqual(['restarted (1)']);
    await waitFor(async () => {
      const pods = new Set(logLines((await call(`${JOBS}/server/logs?lines=5000`)).body).map((l) => l.pod));
      return pods.size === 2;
    });
  });

  it('runs a scheduled job on its schedule, and right away on restart', async () => {
    await create({
      name: 'tick',
      cmd: './tick.sh',
      imagename: 'python3.11',
      job_type: 'scheduled',
      schedule: '*/5 * * * *',
    });
    const waiting = await job('tick');
    expect(waiting).toMatchObject({
      status_short: 'Waiting for scheduled time',
      schedule_actual: '*/5 * * * *',
      status: { short: 'pending', previous_schedule: null, next_schedule: expect.any(String) },
    });
    expect(body(await call(`${JOBS}/tick/restart/`, { method: 'POST' })).messages.error).toEqual([]);
    const restarted = await job('tick');
    expect(restarted.status_short).toMatch(/^Running for \d+s$/);
    expect(restarted.status.previous_schedule).toEqual(expect.any(String));
    await waitFor(async () => (await job('tick')).status.short === 'succeeded');
    // The schedule fires every JOB_STEPS.schedulePeriod steps of sandbox time.
    await waitFor(
      async () => (await job('tick')).status_short.startsWith('Last schedule time: '),
      JOB_STEPS.schedulePeriod * 10 * 20,
    );
  });

  it('crash-loops a continuous job whose command fails, then marks it failed', async () => {
    // The legacy `continuous: true` instead of job_type (older CLIs) still works.
    await create(
      { name: 'crashy', cmd: 'node server.js --fail', imagename: 'node20', continuous: true },
      { checkRequest: false },
    );
    await waitFor(async () => (await job('crashy')).status_short === 'Specified command fails to run');
    await waitFor(async () => (await job('crashy')).status.short === 'failed');
    const failed = await job('crashy');
    expect(failed.status.messages).toEqual([`restarted (${JOB_STEPS.crashLimit})`, 'exitcode 1']);
  });

  it('refuses to restart a one-off job and 404s an unknown one', async () => {
    const oneOff = await call(`${JOBS}/hello/restart`, { method: 'POST' });
    expect(oneOff.status).toBe(400);
    expect(body(oneOff)).toEqual({ error: ['Unable to restart a one-off job'] });
    expect((await call(`${JOBS}/ghost/restart`, { method: 'POST' })).status).toBe(404);
  });

  it('creates or updates with PATCH', async () => {
    const web = { name: 'patched', cmd: 'web', imagename: `tool-${T}/web:latest`, job_type: 'continuous' };
    const first = body(await call(JOBS, { method: 'PATCH', body: web }));
    expect(first).toEqual({
      messages: { info: ['Job patched created in storage and runtime'], warning: [], error: [] },
      job_changed: true,
    });
    const same = body(await call(`${JOBS}/`, { method: 'PATCH', body: web }));
    expect(same).toMatchObject({
      job_changed: false,
      messages: { info: ['Job patched is already up to date'] },
    });
    const changed = body(await call(JOBS, { method: 'PATCH', body: { ...web, memory: '1Gi' } }));
    expect(changed).toMatchObject({
      job_changed: true,
      messages: { info: ['Job patched was updated in storage and runtime'] },
    });
    expect((await job('patched')).memory).toBe('1.0Gi');
    const oneOff = body(
      await call(JOBS, {
        method: 'PATCH',
        body: { ...ONE_OFF, name: 'once', cmd: 'x', imagename: 'bookworm' },
      }),
    );
    expect(oneOff).toMatchObject({
      job_changed: false,
      messages: { info: ["OneOffJobs can't be updated, delete and recreate it instead"] },
    });
    const bad = await call(JOBS, {
      method: 'PATCH',
      body: { ...web, schedule: 'never' },
      checkRequest: false,
    });
    expect(bad.status).toBe(422);
  });

  it('deletes one job, and flushes all', async () => {
    expect(body(await call(`${JOBS}/patched`, { method: 'DELETE' }))).toEqual({
      messages: { info: [], warning: [], error: [] },
    });
    expect((await call(`${JOBS}/patched`, { method: 'DELETE' })).status).toBe(404);
    const flush = '/jobs/v1/tool/flushme/jobs';
    await call(flush, {
      tool: 'flushme',
      method: 'POST',
      body: { ...ONE_OFF, name: 'a', cmd: 'x', imagename: 'bookworm' },
    });
    expect(body(await call(flush, { tool: 'flushme' })).jobs).toHaveLength(1);
    await call(flush, { tool: 'flushme', method: 'DELETE' });
    expect(body(await call(flush, { tool: 'flushme' })).jobs).toEqual([]);
  });

  it('drives jobs for deployments through ctx.jobs', () => {
    const jobs = sandbox.ctx.jobs;
    if (!jobs?.listJobs) throw new Error('jobs facade not registered');
    const applied = {
      name: 'deployed',
      cmd: 'web',
      imagename: `tool-${T}/web:latest`,
      job_type: 'continuous' as const,
    };
    expect(jobs.applyJob(T, applied)).toBe(true);
    expect(jobs.applyJob(T, applied)).toBe(false);
    expect(jobs.listJobs(T)).toContainEqual(applied);
    expect(jobs.restartJob(T, 'deployed')).toBe(true);
    expect(jobs.restartJob(T, 'ghost')).toBe(false);
    expect(() => jobs.applyJob(T, { ...applied, name: 'Bad' })).toThrow(/Invalid job name/);
    // The seeded web job (the published web service) is exactly what the components seed deploys.
    expect(
      jobs.applyJob('mytool', {
        name: 'web',
        cmd: 'web',
        imagename: 'tool-mytool/web:latest',
        job_type: 'continuous',
        port: 8000,
        publish: '/',
      }),
    ).toBe(false);
  });
});

describe('jobs API emulator: validation', () => {
  const base = { name: 'valid', cmd: './run.sh', imagename: 'python3.11' };
  const expect400 = async (payload: Body, message: string | RegExp) => {
    const answer = await create(payload, { checkRequest: false });
    expect(answer.status).toBe(400);
    expect(body(answer).error).toEqual([expect.stringMatching(message)]);
  };
  const expect422 = async (payload: unknown, locs: (string | number)[][]) => {
    const answer = await create(payload as Body, { checkRequest: false });
    expect(answer.status).toBe(422);
    for (const loc of locs) expect(body(answer).detail).toContainEqual(expect.objectContaining({ loc }));
  };

  it('answers 400 for the rules the handler checks', async () => {
    await expect400({ ...base, name: 'Not_A_Name' }, /^Invalid job name\. See the documentation/);
    await expect400({ ...base, name: 'x'.repeat(53) }, /can't be longer than 52 characters/);
    await expect400({ ...base, name: '' }, /^Job name is required/);
    await expect400({ ...base, mount: 'none' }, /Mount type none is only supported for build service images/);
    await expect400(
      { ...base, imagename: `tool-${T}/web:latest`, filelog: true, mount: 'none' },
      /File logging is only available with --mount=all/,
    );
    await expect400(
      { ...base, continuous: true, health_check: { type: 'http', path: '/healthz' } },
      /Port must be set for HTTP health checks/,
    );
    await expect400(
      { ...base, schedule: '61 * * * *' },
      /^Unable to parse cron expression "61 \* \* \* \*" \(.*expected 0-59\)$/,
    );
    await expect400({ ...base, schedule: '@every-minute' }, /Invalid at-macro/);
    await expect400({ ...base, schedule: '1-5/2 * * * *' }, /Step syntax is not supported with ranges/);
    await expect400(
      { ...base, memory: '8Gi' },
      /^Requested memory 8\.0Gi is over maximum allowed per container \(6Gi\)$/,
    );
    await expect400(
      { ...base, cpu: '10m' },
      /^Requested CPU 0\.01 is less than minimum required per container/,
    );
    await expect400({ ...base, imagename: 'cobol' }, /^No such image 'cobol'$/);
  });

  it('accepts the documented schedule forms', async () => {
    for (const [i, schedule] of [
      '@hourly',
      '@weekly',
      '0 3 * * 1-5',
      '30 4 * * mon',
      '*/15 2,14 1 1-6 sun',
    ].entries()) {
      const created = await create({ ...base, name: `cron-${i}`, job_type: 'scheduled', schedule });
      expect(created.status, schedule).toBe(201);
      expect(body(created).job.schedule_actual).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    }
  });

  it('rejects day names in ranges, as the real parser does', async () => {
    await expect400(
      { ...base, job_type: 'scheduled', schedule: '0 3 * * mon-fri' },
      /Unable to parse 'mon' as an integer/,
    );
  });

  it("answers FastAPI's 422 for body schema violations", async () => {
    await expect422({ name: 'x', imagename: 'python3.11' }, [['body', 'NewOneOffJob', 'cmd']]);
    await expect422({ ...base, retry: 6 }, [['body', 'NewOneOffJob', 'retry']]);
    await expect422({ ...base, continuous: true, retry: 1 }, [['body', 'NewContinuousJob', 'retry']]);
    await expect422({ ...base, colour: 'red' }, [['body', 'NewOneOffJob', 'colour']]);
    await expect422({ ...base, filelog: 'yes please' }, [['body', 'NewOneOffJob', 'filelog']]);
    await expect422({ ...base, memory: 'lots' }, [['body', 'NewOneOffJob', 'memory']]);
    await expect422({ ...base, job_type: 'cron' }, [['body', 'NewScheduledJob', 'job_type']]);
    const json = await create('{"name": ' as unknown as Body, { checkRequest: false });
    expect(body(json).detail).toEqual([
      expect.objectContaining({ type: 'json_invalid', msg: 'JSON decode error' }),
    ]);
    const missing = await create({ name: 'x', imagename: 'python3.11' }, { checkRequest: false });
    expect(body(missing).detail[0]).toEqual({
      type: 'missing',
      loc: ['body', 'NewOneOffJob', 'cmd'],
      msg: 'Field required',
      input: { name: 'x', imagename: 'python3.11' },
    });
  });
});

describe('jobs API emulator: logs', () => {
  it('answers lines, follow and the logs errors', async () => {
    const web = '/jobs/v1/tool/mytool/jobs/web/logs';
    // Like Loki's forward query: the oldest `lines` of the last hour.
    const oldest = logLines((await call(`${web}?lines=3`, { tool: 'mytool' })).body);
    expect(oldest).toHaveLength(3);
    expect(Date.parse(oldest[0]?.datetime)).toBeLessThan(Date.now() - 50 * 60_000);
    const all = logLines((await call(web, { tool: 'mytool' })).body);
    expect(all.length).toBeGreaterThan(200);
    expect(all.length).toBeLessThanOrEqual(500);
    const bad = await call(`${web}?lines=many`, { tool: 'mytool' });
    expect(bad.status).toBe(400);
    expect(body(bad).error[0]).toMatch(/^Unable to parse lines as integer/);
    expect(body(await call(`${web}?lines=5001`, { tool: 'mytool' })).error).toEqual([
      'Requested number of 5001 lines is over limit of 5000',
    ]);

    await create({ ...ONE_OFF, name: 'filer', cmd: './x.sh', imagename: 'python3.11', filelog: true });
    const filer = await call(`${JOBS}/filer/logs`);
    expect(filer.status).toBe(404);
    expect(body(filer).error[0]).toBe(
      "Job 'filer' has file logging enabled, which is incompatible with the logs command",
    );
    // A prebuilt image logs to files by default: nothing reaches the logs.
    await create({ ...ONE_OFF, name: 'quiet', cmd: './x.sh', imagename: 'python3.11' });
    const quiet = await call(`${JOBS}/quiet/logs`);
    expect(quiet.status).toBe(404);
    expect(body(quiet).error).toEqual(["Job 'quiet' does not have any logs available"]);
  });

  it('follows a job, streaming the lines it prints', async () => {
    await create({
      name: 'chatty',
      cmd: 'yes hello',
      imagename: 'bookworm',
      filelog: false,
      job_type: 'continuous',
    });
    const response = await request(`${sandbox.internalUrl}${JOBS}/chatty/logs?follow=true&lines=10`, {
      dispatcher: agentFor(T),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf8');
    let text = '';
    for await (const chunk of response.body) {
      text += chunk.toString();
      if (text.includes('"message": "marker"')) break;
      if (text.split('\n').length > SPAM_LINES_PER_STEP * 2)
        emitLogLines(sandbox.ctx, T, 'chatty', ['marker']);
    }
    response.body.destroy();
    const lines = logLines(text.slice(0, text.lastIndexOf('\n')));
    expect(lines.filter((l) => l.message === 'hello').length).toBeGreaterThan(SPAM_LINES_PER_STEP);
    expect(lines.at(-1)).toMatchObject({ container: 'chatty', message: 'marker' });
  });
});
const { agentFor } = useToolhostEmulator({ stepMs: 10, tools: [T, 'flushme'] }, (started) => {
  sandbox = started;
  seedJobsLogsEnvvars(started.ctx);
});
