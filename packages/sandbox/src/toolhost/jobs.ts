/**
 * The jobs API emulator (`/jobs/v1`, J = toolforge-jobs-api 4.11.1, specs/toolforge/jobs-openapi.yaml).
 *
 * Routes answer with and without a trailing slash, as the real routers do. Deliberate differences
 * from the OpenAPI document, all taken from the real code (specs/toolforge/README.md):
 * - `POST /jobs` answers **201** (the spec says 200), and **409** when a job of that name exists and
 *   its `status_short` is not `Completed` (a completed one is replaced);
 * - a missing `x-toolforge-tool` identity is **403** (the spec says 401), see auth.ts;
 * - body schema violations are FastAPI's **422** `{"detail":[…]}` (not in the spec);
 * - `quotas` items of "Per-job limits" carry `used: null`, a continuous job without health check
 *   `health_check: null`, a scheduled job never run `previous_schedule: null` (the spec says string).
 * One more, the emulator's own: the `POST` response shows the job resolved, with its live status
 * (the real one echoes model defaults: `status_short: "Unknown"`, `duration: null`).
 */
import { Hono } from 'hono';
import { type ToolhostEnv, toolAuth } from './auth';
import type { AppliedJob, JobsFacade, SandboxContext } from './context';
import { type JobsRuntime, jobsRuntimeOf } from './jobs-engine';
import { PREBUILT_IMAGES } from './jobs-images';
import { jobsLogsHandler } from './jobs-logs';
import { RequestMetrics } from './jobs-metrics';
import type { JobSpec } from './jobs-model';
import { publishConflict } from './jobs-publish';
import { jobQuota } from './jobs-quota';
import { isRejection, jobsError, runtimeRejection, validateJobBody, validateSpec } from './jobs-validate';
import { jobView } from './jobs-view';

const EMPTY_MESSAGES = () => ({ info: [] as string[], warning: [] as string[], error: [] as string[] });

/** Both spellings of a route: FastAPI registers each path with and without the trailing slash. */
const both = (path: string) => [path, `${path}/`];

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/** Parses `include_unset` as pydantic parses a bool query; undefined when it cannot. */
function parseIncludeUnset(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return true;
  const word = raw.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

const boolParsing = (input: string) => ({
  detail: [
    {
      type: 'bool_parsing',
      loc: ['query', 'include_unset'],
      msg: 'Input should be a valid boolean, unable to interpret input',
      input,
    },
  ],
});

/**
 * The `messages` of a list/show answer: with `include_unset=false` the real API dumps the response
 * with `exclude_unset`, which empties the default `ResponseMessages()` to `{}`.
 */
const listMessages = (includeUnset: boolean) => (includeUnset ? EMPTY_MESSAGES() : {});

/** Writes a jobs API audit event into the job's logs (what jobs-api sends to the logs API). */
function audit(runtime: JobsRuntime, tool: string, job: string, what: string): void {
  runtime.logs.append(tool, job, {
    pod: '',
    container: '',
    message: `Job ${job} ${what}`,
    source: 'jobs-api',
  });
}

/** The facade the components area drives deployments through. */
function jobsFacade(runtime: JobsRuntime): JobsFacade {
  return {
    applyJob(tool: string, job: AppliedJob): boolean {
      const spec = Object.fromEntries(
        Object.entries(job).filter(([, v]) => v !== undefined),
      ) as unknown as JobSpec;
      const valid = validateSpec(tool, spec);
      if (isRejection(valid)) throw new Error(`job ${spec.name} rejected: ${JSON.stringify(valid.body)}`);
      const rejected = runtimeRejection(valid.spec);
      if (rejected) throw new Error(`job ${spec.name} rejected: ${JSON.stringify(rejected.body)}`);
      const outcome = runtime.update(tool, valid);
      if (outcome.changed) audit(runtime, tool, spec.name, 'updated');
      return outcome.changed;
    },
    restartJob(tool: string, name: string): boolean {
      const outcome = runtime.restart(tool, name);
      if (outcome === 'restarted') audit(runtime, tool, name, 'restarted');
      return outcome === 'restarted';
    },
    listJobs(tool: string): AppliedJob[] {
      return runtime
        .list(tool)
        .filter((r) => r.spec.job_type !== 'one-off')
        .map(({ spec }) => {
          const applied: AppliedJob = {
            name: spec.name,
            cmd: spec.cmd,
            imagename: spec.imagename,
            job_type: spec.job_type as AppliedJob['job_type'],
          };
          if (spec.schedule !== undefined) applied.schedule = spec.schedule;
          if (spec.cpu !== undefined) applied.cpu = spec.cpu;
          if (spec.memory !== undefined) applied.memory = spec.memory;
          if (spec.replicas !== undefined) applied.replicas = spec.replicas;
          if (typeof spec.port === 'number') applied.port = spec.port;
          if (spec.publish) applied.publish = spec.publish;
          return applied;
        });
    },
  };
}

/**
 * Creates the jobs API (mount it at `/jobs/v1`) and registers `ctx.jobs`. Tool routes go through
 * {@link toolAuth}; `/healthz` and `/metrics` need no identity.
 */
export function createJobsArea(ctx: SandboxContext): Hono<ToolhostEnv> {
  const runtime = jobsRuntimeOf(ctx);
  ctx.jobs = jobsFacade(runtime);
  const metrics = new RequestMetrics();
  const app = new Hono<ToolhostEnv>();
  app.use('*', metrics.middleware());

  app.get('/healthz', (c) => c.json({ health: { status: 'OK', message: 'OK' }, messages: EMPTY_MESSAGES() }));
  app.get('/metrics', (c) => c.text(metrics.render(), 200, { 'content-type': 'text/plain; version=0.0.4' }));

  app.use('/tool/:tool_name/*', toolAuth({ area: 'jobs' }));

  // images and quotas are dumped with exclude_unset: the default ResponseMessages() becomes {}.
  app.on('GET', both('/tool/:tool_name/images'), (c) => c.json({ images: PREBUILT_IMAGES, messages: {} }));
  app.on('GET', both('/tool/:tool_name/quotas'), (c) =>
    c.json({ quota: jobQuota(runtime.list(c.get('tool'))), messages: {} }),
  );

  app.on('GET', both('/tool/:tool_name/jobs'), (c) => {
    const includeUnset = parseIncludeUnset(c.req.query('include_unset'));
    if (includeUnset === undefined) return c.json(boolParsing(c.req.query('include_unset') ?? ''), 422);
    const jobs = runtime.list(c.get('tool')).map((record) => jobView(record, includeUnset));
    return c.json({ jobs, messages: listMessages(includeUnset) });
  });

  app.on(['POST', 'PUT'], both('/tool/:tool_name/jobs'), async (c) => {
    const tool = c.get('tool');
    const valid = validateJobBody(tool, await c.req.text());
    if (isRejection(valid)) return c.json(valid.body as object, valid.status);
    const existing = runtime.get(tool, valid.spec.name);
    if (existing) {
      if (jobView(existing).status_short !== 'Completed') {
        return c.json(jobsError(`A job with the name ${valid.spec.name} already exists`), 409);
      }
      runtime.remove(tool, valid.spec.name);
    }
    const rejected = runtimeRejection(valid.spec);
    if (rejected) return c.json(rejected.body as object, rejected.status);
    const taken = publishConflict(ctx, tool, valid.spec);
    if (taken) return c.json(taken, 400);
    const record = runtime.create(tool, valid);
    audit(runtime, tool, valid.spec.name, 'created');
    return c.json({ job: jobView(record), messages: EMPTY_MESSAGES() }, 201);
  });

  // Update in place or create (J tjf/api/jobs.py `api_update_job`, tjf/core/core.py `update_job`): the
  // body replaces the definition (compared field by field as set); one-off jobs are never updated.
  app.on('PATCH', both('/tool/:tool_name/jobs'), async (c) => {
    const tool = c.get('tool');
    const valid = validateJobBody(tool, await c.req.text());
    if (isRejection(valid)) return c.json(valid.body as object, valid.status);
    if (valid.spec.job_type !== 'one-off') {
      const rejected = runtimeRejection(valid.spec);
      if (rejected) return c.json(rejected.body as object, rejected.status);
    }
    const taken = runtime.get(tool, valid.spec.name) ? undefined : publishConflict(ctx, tool, valid.spec);
    if (taken) return c.json(taken, 400);
    const outcome = runtime.update(tool, valid);
    if (outcome.changed) audit(runtime, tool, valid.spec.name, 'updated');
    return c.json({
      messages: { ...EMPTY_MESSAGES(), info: [outcome.message] },
      job_changed: outcome.changed,
    });
  });

  app.on('DELETE', both('/tool/:tool_name/jobs'), (c) => {
    const tool = c.get('tool');
    for (const record of runtime.list(tool)) audit(runtime, tool, record.spec.name, 'deleted');
    runtime.flush(tool);
    return c.json({ messages: EMPTY_MESSAGES() });
  });

  const notFound = (name: string) => jobsError(`Job '${name}' does not exist`);

  app.on('GET', both('/tool/:tool_name/jobs/:name'), (c) => {
    const includeUnset = parseIncludeUnset(c.req.query('include_unset'));
    if (includeUnset === undefined) return c.json(boolParsing(c.req.query('include_unset') ?? ''), 422);
    const name = c.req.param('name') ?? '';
    const record = runtime.get(c.get('tool'), name);
    if (!record) return c.json(notFound(name), 404);
    return c.json({ job: jobView(record, includeUnset), messages: listMessages(includeUnset) });
  });

  app.on('DELETE', both('/tool/:tool_name/jobs/:name'), (c) => {
    const name = c.req.param('name') ?? '';
    const tool = c.get('tool');
    if (!runtime.remove(tool, name)) return c.json(notFound(name), 404);
    audit(runtime, tool, name, 'deleted');
    return c.json({ messages: EMPTY_MESSAGES() });
  });

  app.on('POST', both('/tool/:tool_name/jobs/:name/restart'), (c) => {
    const name = c.req.param('name') ?? '';
    const tool = c.get('tool');
    const outcome = runtime.restart(tool, name);
    if (outcome === 'missing') return c.json(notFound(name), 404);
    if (outcome === 'one-off') return c.json(jobsError('Unable to restart a one-off job'), 400);
    audit(runtime, tool, name, 'restarted');
    return c.json({ messages: EMPTY_MESSAGES() });
  });

  app.on('GET', both('/tool/:tool_name/jobs/:name/logs'), (c) =>
    jobsLogsHandler(c, ctx, runtime, c.get('tool'), c.req.param('name') ?? ''),
  );

  return app;
}

/**
 * Makes a job print `lines` now, as its current pod (test helper for live tails: the lines reach
 * both logs APIs and every open stream at once, whatever the job's `filelog`).
 */
export function emitLogLines(ctx: SandboxContext, tool: string, job: string, lines: readonly string[]): void {
  jobsRuntimeOf(ctx).emit(tool, job, lines);
}

export { JOB_STEPS, jobsRuntimeOf } from './jobs-engine';
export { SPAM_LINES_PER_STEP } from './jobs-output';
