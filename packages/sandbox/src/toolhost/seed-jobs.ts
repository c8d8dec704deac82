/**
 * Seed data of the jobs, logs and envvars areas (call {@link seedJobsLogsEnvvars} after the tools
 * exist; it is idempotent). Every job below has an hour of log history, spread over the hour before
 * the sandbox started, and keeps producing lines as it runs.
 *
 * | tool | job | type | command | image | state |
 * |---|---|---|---|---|---|
 * | mytool | `web` | continuous, port 8000, published (the web service) | `web` | `tool-mytool/web:latest` | running (deployed yesterday by components) |
 * | mytool | `daily-report` | scheduled `@daily` | `python3 report.py --daily` | `python3.11` (filelog off) | last run 40 min ago, succeeded |
 * | mytool | `migrate-db` | one-off | `./manage.py migrate` | `tool-mytool/web:latest` | succeeded 20 min ago |
 * | demo | `api` | continuous, port 8000 | `web` | `tool-demo/api:latest` | running |
 * | demo | `nightly` | scheduled `@daily` | `./nightly.sh` | `tool-demo/api:latest` | last run 50 min ago, succeeded |
 * | demo | `backfill` | one-off | `./backfill.sh --fail-on-error` | `tool-demo/api:latest` | failed 30 min ago (exit code 1) |
 *
 * `web`, `api` and `nightly` are exactly what the components seed (seed.ts) deploys, so a deployment
 * without changes finds them "already up to date". Envvars: see {@link SEEDED_ENVVARS} (plus
 * `TOOL_DEPLOY_TOKEN` of mytool, stored by the components seed through `ctx.envvars`).
 */
import type { SandboxContext } from './context';
import { envvarsOf } from './envvars';
import { type JobsRuntime, jobsRuntimeOf, suffix } from './jobs-engine';
import type { JobRecord, JobSpec, Pod } from './jobs-model';
import { endLines, startLines, stepLines } from './jobs-output';
import { isRejection, validateSpec } from './jobs-validate';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Envvars of the seeded tools (fake secrets, but shaped like real ones). */
export const SEEDED_ENVVARS: Record<string, Record<string, string>> = {
  mytool: {
    API_ENDPOINT: 'https://api.mytool.example.org/v1',
    DB_PASSWORD: 'Xk9pQ7vR2mZt4LwB8nHc',
  },
  demo: {
    API_ENDPOINT: 'https://demo.toolforge.org/api',
    DB_PASSWORD: 'd3m0-Tq4Vb8Ns1Ry6Wp2',
    SENTRY_DSN: 'https://5f2c9e1ab7d04c3f@sentry.example.org/42',
  },
};

/** Names of the seeded jobs per tool. */
export const SEEDED_JOBS = {
  mytool: { continuous: 'web', scheduled: 'daily-report', oneOff: 'migrate-db' },
  demo: { continuous: 'api', scheduled: 'nightly', oneOff: 'backfill' },
} as const;

const seeded = new WeakSet<SandboxContext>();

function define(runtime: JobsRuntime, tool: string, spec: JobSpec, createdAt: number): JobRecord {
  const valid = validateSpec(tool, spec);
  if (isRejection(valid)) throw new Error(`bad seed job ${spec.name}: ${JSON.stringify(valid.body)}`);
  return runtime.create(tool, valid, createdAt);
}

function finishedPod(name: string, start: number, end: number, exitCode: number): Pod {
  return {
    name: `${name}-${suffix(5)}`,
    createdAt: start - 2000,
    phase: exitCode === 0 ? 'Succeeded' : 'Failed',
    steps: 0,
    startedAt: start,
    finishedAt: end,
    exitCode,
    restartCount: 0,
    printed: 0,
  };
}

/** Writes `lines` into the job's log, evenly spread from `from` to `to`. */
function history(
  runtime: JobsRuntime,
  record: JobRecord,
  pod: Pod,
  lines: string[],
  from: number,
  to: number,
) {
  const gap = lines.length > 1 ? (to - from) / (lines.length - 1) : 0;
  lines.forEach((message, i) => {
    runtime.logs.append(record.tool, record.spec.name, {
      pod: pod.name,
      container: record.spec.name,
      message,
      time: Math.round(from + i * gap),
    });
  });
  pod.printed += lines.length;
}

/** A web server's hour: its start-up long ago, then an access log line every `everyMs`. */
function webHistory(runtime: JobsRuntime, record: JobRecord, now: number, everyMs: number): void {
  const pod = record.pod as Pod;
  pod.phase = 'Running';
  pod.waiting = undefined;
  pod.createdAt = record.createdAt + 2000;
  pod.startedAt = record.createdAt + 20_000;
  for (let t = now - HOUR; t < now; t += everyMs) {
    const out = { cmd: record.spec.cmd, port: record.spec.port, printed: pod.printed, time: t };
    history(runtime, record, pod, stepLines(out), t, t);
  }
}

/** A finished run of a one-off or scheduled job, `agoMs` before now, with its output. */
function pastRun(
  runtime: JobsRuntime,
  record: JobRecord,
  now: number,
  agoMs: number,
  lines?: string[],
): void {
  const start = now - agoMs;
  const end = start + 12_000;
  const failed = record.spec.cmd.includes('fail');
  const jobName =
    record.spec.job_type === 'scheduled'
      ? `${record.spec.name}-${Math.floor(start / MINUTE)}`
      : record.spec.name;
  const pod = finishedPod(jobName, start, end, failed ? 1 : 0);
  record.runs = [{ pod, manual: false, createdAt: start - 2000, attempt: 0 }];
  if (record.spec.job_type === 'scheduled') record.lastScheduleTime = start - 2000;
  const out = { cmd: record.spec.cmd, port: undefined, printed: 0, time: start };
  const body = lines ?? [
    ...startLines(out),
    ...[0, 1, 2, 3].flatMap((i) => stepLines({ ...out, printed: i })),
    ...endLines(out, failed),
  ];
  history(runtime, record, pod, body, start, end);
}

/** Seeds the jobs (with an hour of logs) and envvars of `mytool` and `demo`. Idempotent. */
export function seedJobsLogsEnvvars(ctx: SandboxContext, now = Date.now()): void {
  if (seeded.has(ctx)) return;
  seeded.add(ctx);
  for (const tool of Object.keys(SEEDED_ENVVARS)) ctx.tools.add(tool);
  const runtime = jobsRuntimeOf(ctx);

  const web = define(
    runtime,
    'mytool',
    {
      name: 'web',
      cmd: 'web',
      imagename: 'tool-mytool/web:latest',
      job_type: 'continuous',
      port: 8000,
      publish: '/',
    },
    now - DAY,
  );
  webHistory(runtime, web, now, 15_000);
  const report = define(
    runtime,
    'mytool',
    {
      name: 'daily-report',
      cmd: 'python3 report.py --daily',
      imagename: 'python3.11',
      job_type: 'scheduled',
      schedule: '@daily',
      filelog: false,
    },
    now - 7 * DAY,
  );
  pastRun(runtime, report, now, 40 * MINUTE);
  const migrate = define(
    runtime,
    'mytool',
    {
      name: 'migrate-db',
      cmd: './manage.py migrate',
      imagename: 'tool-mytool/web:latest',
      job_type: 'one-off',
    },
    now - 20 * MINUTE - 2000,
  );
  pastRun(runtime, migrate, now, 20 * MINUTE, [
    'Operations to perform:',
    '  Apply all migrations: admin, auth, contenttypes, reports, sessions',
    'Running migrations:',
    '  Applying reports.0007_report_created_index... OK',
    '  Applying reports.0008_report_owner... OK',
    'Done.',
  ]);

  const api = define(
    runtime,
    'demo',
    { name: 'api', cmd: 'web', imagename: 'tool-demo/api:latest', job_type: 'continuous', port: 8000 },
    now - 3 * DAY,
  );
  webHistory(runtime, api, now, 20_000);
  const nightly = define(
    runtime,
    'demo',
    {
      name: 'nightly',
      cmd: './nightly.sh',
      imagename: 'tool-demo/api:latest',
      job_type: 'scheduled',
      schedule: '@daily',
    },
    now - 3 * DAY,
  );
  pastRun(runtime, nightly, now, 50 * MINUTE);
  const backfill = define(
    runtime,
    'demo',
    {
      name: 'backfill',
      cmd: './backfill.sh --fail-on-error',
      imagename: 'tool-demo/api:latest',
      job_type: 'one-off',
    },
    now - 30 * MINUTE - 2000,
  );
  pastRun(runtime, backfill, now, 30 * MINUTE);

  for (const [tool, vars] of Object.entries(SEEDED_ENVVARS)) {
    const store = envvarsOf(ctx, tool);
    for (const [name, value] of Object.entries(vars)) if (!store.has(name)) store.set(name, value);
  }
}
