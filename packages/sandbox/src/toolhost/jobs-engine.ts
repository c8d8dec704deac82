/**
 * The jobs runtime of one sandbox: defined jobs, their pods, and one step timer (unref'd, paced by
 * `ctx.timings.stepMs`, stopped with the sandbox's timers) that moves them on:
 *
 * - one-off: a pod is `Pending` for {@link JOB_STEPS}.pending steps, `Running` for `run` steps,
 *   then `Succeeded`, or `Failed` when the command mentions `fail`/`exit 1` (retried `retry` times);
 * - scheduled: fires every `schedulePeriod` steps (sandbox time: a real `@daily` would make the
 *   emulator useless), unless a run is still active; `restart` runs it now;
 * - continuous: one pod, started after `pending` steps, printing a line per step; a failing command
 *   crash-loops and the job fails after `crashLimit` restarts; `restart` rolls out a new pod.
 *
 * Pods print what jobs-output.ts makes up, into the shared log store, unless the job writes file
 * logs (the default for prebuilt images: then, as on the real platform, nothing reaches the logs).
 */
import { randomInt } from 'node:crypto';
import { type SandboxContext, timersOf } from './context';
import { JOB_STEPS } from './job-steps';
import { commandFails, type JobRecord, type JobSpec, type Pod, type Run, usesFilelog } from './jobs-model';
import { endLines, type OutputContext, startLines, stepLines } from './jobs-output';
import type { ValidJob } from './jobs-validate';
import { type LogStore, logStoreOf } from './logs-store';

/** Lifecycle lengths, in steps. */
export { JOB_STEPS };

/** Runs of a scheduled job kept for status (the CronJob's history limit). */
const RUNS_KEPT = 3;

const K8S_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** A random Kubernetes `generateName` suffix. */
export const suffix = (length: number) =>
  Array.from({ length }, () => K8S_ALPHABET[randomInt(K8S_ALPHABET.length)]).join('');

/** Outcome of {@link JobsRuntime.update}: the PATCH response's `job_changed` and info message. */
export interface UpdateOutcome {
  changed: boolean;
  message: string;
}

/** Canonical JSON (sorted keys), to compare specs. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Defined jobs of every tool, and the step timer that runs them. */
export class JobsRuntime {
  /** The log store the pods print into. */
  readonly logs: LogStore;
  private readonly jobs = new Map<string, Map<string, JobRecord>>();
  private stepCount = 0;

  constructor(private readonly ctx: SandboxContext) {
    this.logs = logStoreOf(ctx);
    this.scheduleTick();
  }

  private scheduleTick(): void {
    timersOf(this.ctx).after(this.ctx.timings.stepMs, () => {
      try {
        this.tick();
      } finally {
        this.scheduleTick();
      }
    });
  }

  private toolJobs(tool: string): Map<string, JobRecord> {
    let map = this.jobs.get(tool);
    if (!map) {
      map = new Map();
      this.jobs.set(tool, map);
    }
    return map;
  }

  /** A tool's jobs: scheduled and continuous ones by name, then one-offs (as the API lists them). */
  list(tool: string): JobRecord[] {
    const all = [...(this.jobs.get(tool)?.values() ?? [])].sort((a, b) =>
      a.spec.name < b.spec.name ? -1 : 1,
    );
    return [
      ...all.filter((j) => j.spec.job_type !== 'one-off'),
      ...all.filter((j) => j.spec.job_type === 'one-off'),
    ];
  }

  /** One job, if defined. */
  get(tool: string, name: string): JobRecord | undefined {
    return this.jobs.get(tool)?.get(name);
  }

  /** Defines a job (replacing any job of that name) and starts it; `createdAt` is for seeding. */
  create(tool: string, valid: ValidJob, createdAt = Date.now()): JobRecord {
    const { spec } = valid;
    const record: JobRecord = {
      tool,
      spec,
      scheduleActual: valid.scheduleActual,
      createdAt,
      restarts: 0,
      runs: [],
    };
    this.start(record, Date.now());
    this.toolJobs(tool).set(spec.name, record);
    return record;
  }

  private start(record: JobRecord, now: number): void {
    const { spec } = record;
    if (spec.job_type === 'continuous') {
      record.pod = spec.replicas === 0 ? undefined : this.newPod(`${spec.name}-${suffix(10)}`, now);
    } else if (spec.job_type === 'one-off') {
      record.runs = [this.newRun(spec, false, now)];
    } else {
      record.nextFireStep = this.stepCount + JOB_STEPS.schedulePeriod;
      record.nextFireAt = now + JOB_STEPS.schedulePeriod * this.ctx.timings.stepMs;
    }
  }

  /**
   * Creates or updates a job as `PATCH /jobs` does (J `tjf/core/core.py update_job`): one-off jobs
   * are never updated; an unchanged definition is "already up to date"; a changed continuous job
   * rolls out a new pod.
   */
  update(tool: string, valid: ValidJob): UpdateOutcome {
    const { spec } = valid;
    if (spec.job_type === 'one-off') {
      return { changed: false, message: "OneOffJobs can't be updated, delete and recreate it instead" };
    }
    const existing = this.get(tool, spec.name);
    if (!existing) {
      this.create(tool, valid);
      return { changed: true, message: `Job ${spec.name} created in storage and runtime` };
    }
    if (canonical(existing.spec) === canonical(spec)) {
      return { changed: false, message: `Job ${spec.name} is already up to date` };
    }
    const typeChanged = existing.spec.job_type !== spec.job_type;
    existing.spec = spec;
    existing.scheduleActual = valid.scheduleActual;
    if (typeChanged) {
      existing.runs = [];
      existing.pod = undefined;
      existing.lastScheduleTime = undefined;
      this.start(existing, Date.now());
    } else if (spec.job_type === 'continuous') {
      existing.pod = spec.replicas === 0 ? undefined : this.newPod(`${spec.name}-${suffix(10)}`, Date.now());
    }
    return { changed: true, message: `Job ${spec.name} was updated in storage and runtime` };
  }

  /** Deletes a job (its logs stay); false when it does not exist. */
  remove(tool: string, name: string): boolean {
    return this.jobs.get(tool)?.delete(name) ?? false;
  }

  /** Deletes every job of a tool. */
  flush(tool: string): void {
    this.jobs.delete(tool);
  }

  /**
   * Restarts a job (J `tjf/runtimes/k8s/runtime.py restart_job`): a continuous job gets a new pod,
   * a scheduled job's runs are deleted and a manual run starts now; one-off jobs cannot be restarted.
   */
  restart(tool: string, name: string): 'restarted' | 'missing' | 'one-off' {
    const record = this.get(tool, name);
    if (!record) return 'missing';
    const now = Date.now();
    switch (record.spec.job_type) {
      case 'one-off':
        return 'one-off';
      case 'continuous':
        record.restarts += 1;
        if (record.spec.replicas !== 0) record.pod = this.newPod(`${name}-${suffix(10)}`, now);
        return 'restarted';
      case 'scheduled':
        record.runs = [this.newRun(record.spec, true, now)];
        return 'restarted';
    }
  }

  /** Appends lines to a job's log as printed by its current pod (or a made-up one), now. */
  emit(tool: string, name: string, lines: readonly string[]): void {
    const record = this.get(tool, name);
    const pod = record ? this.currentPod(record) : undefined;
    const now = Date.now();
    const podName = pod?.name ?? `${name}-${suffix(5)}`;
    for (const message of lines)
      this.logs.append(tool, name, { pod: podName, container: name, message, time: now });
    if (pod) pod.printed += lines.length;
  }

  /** The pod whose output is current: a continuous job's pod, or the latest run's. */
  currentPod(record: JobRecord): Pod | undefined {
    return record.pod ?? record.runs[record.runs.length - 1]?.pod;
  }

  /** Moves every job one step on. */
  tick(): void {
    this.stepCount += 1;
    const now = Date.now();
    for (const tools of this.jobs.values()) {
      for (const record of tools.values()) {
        if (record.spec.job_type === 'continuous') this.advanceContinuous(record, now);
        else {
          if (record.spec.job_type === 'scheduled') this.maybeFire(record, now);
          const run = record.runs[record.runs.length - 1];
          if (run) this.advanceRun(record, run, now);
        }
      }
    }
  }

  private maybeFire(record: JobRecord, now: number): void {
    if (record.nextFireStep === undefined || this.stepCount < record.nextFireStep) return;
    const active = record.runs.some((r) => r.pod.phase === 'Pending' || r.pod.phase === 'Running');
    // concurrencyPolicy Forbid: a run still going skips this firing.
    if (!active) {
      record.runs.push(this.newRun(record.spec, false, now));
      if (record.runs.length > RUNS_KEPT) record.runs.shift();
      record.lastScheduleTime = now;
    }
    record.nextFireStep += JOB_STEPS.schedulePeriod;
    record.nextFireAt = now + JOB_STEPS.schedulePeriod * this.ctx.timings.stepMs;
  }

  private advanceRun(record: JobRecord, run: Run, now: number): void {
    const pod = run.pod;
    pod.steps += 1;
    if (pod.phase === 'Pending') {
      if (pod.steps >= JOB_STEPS.pending) this.startPod(record, pod, now);
    } else if (pod.phase === 'Running') {
      this.print(record, pod, stepLines(this.output(record, pod, now)));
      if (pod.steps >= JOB_STEPS.run) {
        const failed = commandFails(record.spec.cmd);
        this.print(record, pod, endLines(this.output(record, pod, now), failed));
        pod.phase = failed ? 'Failed' : 'Succeeded';
        pod.exitCode = failed ? 1 : 0;
        pod.finishedAt = now;
        pod.steps = 0;
        if (failed && run.attempt < (record.spec.retry ?? 0)) {
          run.attempt += 1;
          run.pod = this.newPod(pod.name.replace(/-[^-]+$/, ''), now);
        }
      }
    }
  }

  private advanceContinuous(record: JobRecord, now: number): void {
    const pod = record.pod;
    if (!pod || pod.phase === 'Failed') return;
    pod.steps += 1;
    if (pod.phase === 'Pending' || pod.waiting === 'CrashLoopBackOff') {
      if (pod.steps >= JOB_STEPS.pending) this.startPod(record, pod, now);
      return;
    }
    if (commandFails(record.spec.cmd)) {
      // The container exits at once; Kubernetes restarts it with a back-off.
      this.print(record, pod, endLines(this.output(record, pod, now), true));
      pod.exitCode = 1;
      pod.finishedAt = now;
      pod.restartCount += 1;
      record.restarts += 1;
      pod.steps = 0;
      if (pod.restartCount >= JOB_STEPS.crashLimit) pod.phase = 'Failed';
      else pod.waiting = 'CrashLoopBackOff';
      return;
    }
    this.print(record, pod, stepLines(this.output(record, pod, now)));
  }

  private startPod(record: JobRecord, pod: Pod, now: number): void {
    pod.phase = 'Running';
    pod.waiting = undefined;
    pod.startedAt = now;
    pod.steps = 0;
    this.print(record, pod, startLines(this.output(record, pod, now)));
  }

  private output(record: JobRecord, pod: Pod, now: number): OutputContext {
    return { cmd: record.spec.cmd, port: record.spec.port, printed: pod.printed, time: now };
  }

  private print(record: JobRecord, pod: Pod, lines: readonly string[]): void {
    pod.printed += lines.length;
    if (lines.length === 0 || usesFilelog(record.spec, record.tool)) return;
    const time = Date.now();
    for (const message of lines) {
      this.logs.append(record.tool, record.spec.name, {
        pod: pod.name,
        container: record.spec.name,
        message,
        time,
      });
    }
  }

  private newPod(name: string, now: number): Pod {
    return {
      name: `${name}-${suffix(5)}`,
      createdAt: now,
      phase: 'Pending',
      steps: 0,
      restartCount: 0,
      waiting: 'ContainerCreating',
      printed: 0,
    };
  }

  private newRun(spec: JobSpec, manual: boolean, now: number): Run {
    // A CronJob names its Jobs `<name>-<minutes since the epoch>`; a one-off Job is `<name>`.
    const jobName = spec.job_type === 'scheduled' ? `${spec.name}-${Math.floor(now / 60_000)}` : spec.name;
    return { pod: this.newPod(jobName, now), manual, createdAt: now, attempt: 0 };
  }
}

const runtimes = new WeakMap<SandboxContext, JobsRuntime>();

/** The jobs runtime of a sandbox, created (and its timer started) on first use. */
export function jobsRuntimeOf(ctx: SandboxContext): JobsRuntime {
  let runtime = runtimes.get(ctx);
  if (!runtime) {
    runtime = new JobsRuntime(ctx);
    runtimes.set(ctx, runtime);
  }
  return runtime;
}
