/**
 * Job definitions and runtime state of the jobs emulator.
 *
 * A job keeps exactly the fields its creator set (`JobSpec`), normalised as the real API stores them;
 * `include_unset=false` shows those, and `include_unset=true` shows {@link resolveSpec}'s result, the
 * defaults the runtime applies (J `tjf/core/models.py get_resolved_core_job`).
 */
import { resolveImage } from './jobs-images';

/** `job_type` values. */
export type JobType = 'one-off' | 'scheduled' | 'continuous';

/** `emails` values. */
export type EmailOption = 'none' | 'all' | 'onfinish' | 'onfailure';

/** A continuous job's health check. */
export type HealthCheck = { type: 'script'; script: string } | { type: 'http'; path: string };

/** A job as its creator defined it: the required fields plus only the optional ones that were set. */
export interface JobSpec {
  name: string;
  cmd: string;
  imagename: string;
  job_type: JobType;
  filelog?: boolean;
  filelog_stdout?: string | null;
  filelog_stderr?: string | null;
  emails?: EmailOption;
  mount?: 'all' | 'none';
  /** Normalised (`0.5Gi`). */
  memory?: string;
  /** Normalised (`0.1`). */
  cpu?: string;
  retry?: number;
  schedule?: string;
  timeout?: number | null;
  replicas?: number;
  port?: number | null;
  port_protocol?: 'tcp' | 'udp';
  health_check?: HealthCheck | null;
  /** `/` exposes the job at `https://<tool>.<public domain>/` (jobs-publish.ts); `''` is not published. */
  publish?: string;
}

/** Pod phases, as Kubernetes names them. */
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

/** One pod of a job. Times are epoch ms. */
export interface Pod {
  name: string;
  createdAt: number;
  phase: PodPhase;
  /** Steps spent in the current phase. */
  steps: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  /** Container restarts (crash loops; user restarts of continuous jobs too, see jobs-status.ts). */
  restartCount: number;
  /** Waiting reason while not running (`ContainerCreating`, `CrashLoopBackOff`). */
  waiting?: string | undefined;
  /** Lines printed so far (drives the generated output). */
  printed: number;
}

/** One execution of a one-off or scheduled job (a Kubernetes Job). */
export interface Run {
  pod: Pod;
  /** Created by `restart` rather than by the schedule. */
  manual: boolean;
  createdAt: number;
  /** 0 for the first attempt; retries (the job's `retry`) add one each. */
  attempt: number;
}

/** A defined job and its runtime state. */
export interface JobRecord {
  tool: string;
  spec: JobSpec;
  /** `schedule_actual` (scheduled jobs). */
  scheduleActual?: string | undefined;
  createdAt: number;
  /** Current pod of a continuous job. */
  pod?: Pod | undefined;
  /** User restarts plus crash restarts of a continuous job. */
  restarts: number;
  /** Runs of a one-off (one) or scheduled job (the latest few), oldest first. */
  runs: Run[];
  /** Last time the schedule (not a restart) created a run. */
  lastScheduleTime?: number | undefined;
  /** Step number at which the schedule fires next. */
  nextFireStep?: number;
  /** Epoch ms of the next firing, for `status.next_schedule`. */
  nextFireAt?: number;
}

/** Home directory of a tool, where file logs go. */
export const toolHome = (tool: string) => `/data/project/${tool}`;

/** Default memory and CPU, normalised (`512Mi`, `100m`). */
export const DEFAULT_MEMORY = '0.5Gi';
/** Default CPU, normalised. */
export const DEFAULT_CPU = '0.1';

/** Whether a job's image is a build-service one (a "/" in the name). */
export function isBuildservice(spec: JobSpec): boolean {
  return resolveImage(spec.imagename)?.buildservice ?? spec.imagename.includes('/');
}

function resolveLogPath(path: string | null | undefined, home: string, fallback: string): string {
  if (!path) return `${home}/${fallback}`;
  return path.startsWith('/') ? path : `${home}/${path}`;
}

/** Every field of a job with the runtime's defaults applied, in the response's field order. */
export function resolveSpec(spec: JobSpec, tool: string): Record<string, unknown> {
  const buildservice = isBuildservice(spec);
  // filelog defaults to true for prebuilt images, mount to all for them and none for build-service ones.
  const filelog = spec.filelog ?? !buildservice;
  const home = toolHome(tool);
  const common: Record<string, unknown> = {
    name: spec.name,
    cmd: spec.cmd,
    imagename: spec.imagename,
    filelog,
    filelog_stdout: filelog
      ? resolveLogPath(spec.filelog_stdout, home, `${spec.name}.out`)
      : (spec.filelog_stdout ?? null),
    filelog_stderr: filelog
      ? resolveLogPath(spec.filelog_stderr, home, `${spec.name}.err`)
      : (spec.filelog_stderr ?? null),
    emails: spec.emails ?? 'none',
    mount: spec.mount ?? (buildservice ? 'none' : 'all'),
    memory: spec.memory ?? DEFAULT_MEMORY,
    cpu: spec.cpu ?? DEFAULT_CPU,
  };
  switch (spec.job_type) {
    case 'one-off':
      return { ...common, job_type: spec.job_type, retry: spec.retry ?? 0 };
    case 'scheduled':
      return {
        ...common,
        job_type: spec.job_type,
        timeout: spec.timeout ?? 0,
        retry: spec.retry ?? 0,
        schedule: spec.schedule,
      };
    case 'continuous':
      return {
        ...common,
        job_type: spec.job_type,
        continuous: true,
        replicas: spec.replicas ?? 1,
        port: spec.port ?? null,
        port_protocol: spec.port_protocol ?? 'tcp',
        publish: spec.publish ?? '',
        health_check: spec.health_check ?? null,
      };
  }
}

/** Whether the job's pods write to files instead of stdout (then no logs reach Loki). */
export function usesFilelog(spec: JobSpec, tool: string): boolean {
  return resolveSpec(spec, tool).filelog === true;
}

/** Whether a command is meant to fail in the emulator: it mentions `fail` or `exit 1`. */
export function commandFails(cmd: string): boolean {
  return cmd.includes('fail') || cmd.includes('exit 1');
}
