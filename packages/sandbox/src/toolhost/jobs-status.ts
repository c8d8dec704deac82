/**
 * A job's status as the API reports it, in both generations (J `tjf/runtimes/k8s/status.py`,
 * `status_deprecated.py`):
 *
 * - `status`: `{short: pending|running|succeeded|failed|unknown, messages, duration, up_to_date}`,
 *   plus `previous_schedule`/`next_schedule` for scheduled jobs; `duration` is `format_duration`
 *   (`1h2m`, `45s`); messages such as `initializing`, `restarted (N)`, `exitcode N`;
 * - `status_short`: the legacy string: `Running` / `Not running` / `Specified command fails to run`
 *   (continuous), `Running for <dur>` / `Completed` / `Failed` (one-off and a scheduled job's active
 *   run), `Waiting for scheduled time` / `Last schedule time: <t>` (scheduled, between runs);
 * - `status_long`: the legacy sentence built from the first pod ("Last run at … Pod in 'Running'
 *   phase. State 'running'. Started at '…'.").
 *
 * Deliberate difference: after a user restart of a continuous job, the real status shows no
 * restart (a rollout makes a fresh pod with restartCount 0); the emulator keeps `restarted (N)` in
 * `status.messages` (N counts restarts and crashes) so that a client can see the restart happened.
 */
import { rfc3339 } from './ids';
import { JOB_STEPS } from './jobs-engine';
import type { JobRecord, Pod, Run } from './jobs-model';

/** `status` of a job response. */
export interface JobStatus {
  short: 'pending' | 'running' | 'succeeded' | 'failed' | 'unknown';
  messages: string[];
  duration: string;
  up_to_date: boolean;
  previous_schedule?: string | null;
  next_schedule?: string | null;
}

/** The three status fields of a job response. */
export interface JobStatusFields {
  status_short: string;
  status_long: string;
  status: JobStatus;
}

/** `format_duration` of the real API: `1d2h3m`, seconds only below a day, `0s` at least. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  let out = '';
  if (d > 0) out += `${d}d`;
  if (h > 0) out += `${h}h`;
  if (m > 0) out += `${m}m`;
  if ((sec > 0 && d === 0) || out === '') out += `${sec}s`;
  return out;
}

const since = (from: number | undefined, now: number) =>
  formatDuration(((now - (from ?? now)) as number) / 1000);
const iso = (ms: number) => rfc3339(new Date(ms));

/** The legacy long status of a pod (J `status_deprecated.py refresh_job_long_status`). */
export function podStatusLong(pod: Pod | undefined): string {
  if (!pod) return 'No pods were created for this job.';
  let text = pod.startedAt !== undefined ? `Last run at ${iso(pod.startedAt)}.` : 'Run not attempted yet.';
  const phase = pod.waiting === 'CrashLoopBackOff' ? 'Running' : pod.phase;
  text += ` Pod in '${phase}' phase.`;
  if (pod.restartCount > 0) text += ` Pod has been restarted ${pod.restartCount} times.`;
  if (pod.waiting) return `${text} State 'waiting'. Reason '${pod.waiting}'.`;
  if (pod.phase === 'Running')
    return `${text} State 'running'. Started at '${iso(pod.startedAt ?? pod.createdAt)}'.`;
  if (pod.phase === 'Pending') return `${text} State 'waiting'. Reason 'ContainerCreating'.`;
  const reason = pod.phase === 'Succeeded' ? 'Completed' : 'Error';
  return (
    `${text} State 'terminated'. Reason '${reason}'. Started at '${iso(pod.startedAt ?? pod.createdAt)}'.` +
    ` Finished at '${iso(pod.finishedAt ?? pod.createdAt)}'. Exit code '${pod.exitCode ?? 0}'.`
  );
}

/** Status of one run of a one-off or scheduled job. */
function runStatus(run: Run, now: number): { status: JobStatus; legacy: string } {
  const pod = run.pod;
  const active = `Running for ${since(run.createdAt, now)}`;
  // A Job that already had a failed pod reports "Failed" even while it retries.
  const legacyActive = run.attempt > 0 ? 'Failed' : active;
  switch (pod.phase) {
    case 'Pending':
      return {
        status: {
          short: 'pending',
          messages: ['initializing'],
          duration: since(pod.createdAt, now),
          up_to_date: true,
        },
        legacy: legacyActive,
      };
    case 'Running':
      return {
        status: { short: 'running', messages: [], duration: since(pod.startedAt, now), up_to_date: true },
        legacy: legacyActive,
      };
    case 'Succeeded':
      return {
        status: { short: 'succeeded', messages: [], duration: since(pod.finishedAt, now), up_to_date: true },
        legacy: 'Completed',
      };
    case 'Failed':
      return {
        status: {
          short: 'failed',
          messages: [`exitcode ${pod.exitCode ?? 1}`],
          duration: since(pod.finishedAt, now),
          up_to_date: true,
        },
        legacy: 'Failed',
      };
  }
}

function continuousStatus(record: JobRecord, now: number): JobStatusFields {
  const pod = record.pod;
  const restarted = record.restarts > 0 ? [`restarted (${record.restarts})`] : [];
  if (!pod) {
    const status: JobStatus = {
      short: 'running',
      messages: [],
      duration: since(record.createdAt, now),
      up_to_date: true,
    };
    return { status_short: 'Running', status_long: podStatusLong(undefined), status };
  }
  let status: JobStatus;
  let legacy: string;
  if (pod.phase === 'Failed') {
    status = {
      short: 'failed',
      messages: [...restarted, `exitcode ${pod.exitCode ?? 1}`],
      duration: since(pod.finishedAt, now),
      up_to_date: true,
    };
    legacy = 'Specified command fails to run';
  } else if (pod.waiting === 'CrashLoopBackOff') {
    status = {
      short: 'pending',
      messages: [...restarted, `exitcode ${pod.exitCode ?? 1}`],
      duration: since(pod.finishedAt, now),
      up_to_date: true,
    };
    legacy = 'Specified command fails to run';
  } else if (pod.phase === 'Pending') {
    status = {
      short: 'pending',
      messages: ['initializing', ...restarted],
      duration: since(pod.createdAt, now),
      up_to_date: true,
    };
    legacy = 'Not running';
  } else {
    status = { short: 'running', messages: restarted, duration: since(pod.startedAt, now), up_to_date: true };
    legacy = 'Running';
  }
  return { status_short: legacy, status_long: podStatusLong(pod), status };
}

function scheduledStatus(record: JobRecord, now: number): JobStatusFields {
  const latest = record.runs[record.runs.length - 1];
  const previous = latest?.createdAt ?? record.lastScheduleTime;
  const schedule = {
    previous_schedule: previous !== undefined ? iso(previous) : null,
    next_schedule: record.nextFireAt !== undefined ? iso(record.nextFireAt) : null,
  };
  let legacy =
    record.lastScheduleTime !== undefined
      ? `Last schedule time: ${iso(record.lastScheduleTime)}`
      : 'Waiting for scheduled time';
  if (!latest) {
    const status: JobStatus = {
      short: 'pending',
      messages: [],
      duration: since(Math.max(record.createdAt, record.lastScheduleTime ?? 0), now),
      up_to_date: true,
      ...schedule,
    };
    return { status_short: legacy, status_long: withSandboxTime(podStatusLong(undefined)), status };
  }
  const run = runStatus(latest, now);
  const active = latest.pod.phase === 'Pending' || latest.pod.phase === 'Running';
  if (active || (latest.manual && run.legacy === 'Failed')) legacy = run.legacy;
  return {
    status_short: legacy,
    status_long: withSandboxTime(podStatusLong(latest.pod)),
    status: { ...run.status, ...schedule },
  };
}

/**
 * Deliberate difference: a scheduled job's legacy `status_long` says that sandbox time is
 * compressed (jobs-engine.ts fires every scheduled job every `JOB_STEPS.schedulePeriod` steps,
 * whatever its schedule), so a card that shows it does not leave a user wondering why `@daily`
 * ran twice in three minutes. The real API has no such sentence.
 */
export const SANDBOX_TIME_NOTE = `Sandbox time is compressed: scheduled jobs run every ${JOB_STEPS.schedulePeriod} steps (SANDBOX_STEP_MS each: ${(JOB_STEPS.schedulePeriod * 1.5).toFixed(0)} s by default), whatever their schedule.`;

function withSandboxTime(text: string): string {
  return `${text} ${SANDBOX_TIME_NOTE}`.trim();
}

/** The status fields of a job at `now`. */
export function jobStatus(record: JobRecord, now = Date.now()): JobStatusFields {
  switch (record.spec.job_type) {
    case 'continuous':
      return continuousStatus(record, now);
    case 'scheduled':
      return scheduledStatus(record, now);
    case 'one-off': {
      const latest = record.runs[record.runs.length - 1];
      if (!latest) {
        const status: JobStatus = { short: 'unknown', messages: [], duration: '0s', up_to_date: true };
        return { status_short: 'Unknown', status_long: podStatusLong(undefined), status };
      }
      const run = runStatus(latest, now);
      return { status_short: run.legacy, status_long: podStatusLong(latest.pod), status: run.status };
    }
  }
}
