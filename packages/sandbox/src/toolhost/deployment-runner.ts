/**
 * The deployment worker (C `deploy_task.py`), one step per `stepMs`:
 * pending → running → builds (reuse a successful build of the same repository, commit and image
 * unless `force-build`; otherwise start one through `ctx.builds` and poll it) → runs (apply each
 * component as a job through `ctx.jobs`, restarting it when `force-run`) → successful.
 * Any failed build → failed ("Some builds failed…"); a cancel request → cancelling → cancelled
 * (started builds are cancelled, the rest skipped); still pending/running after
 * `deploymentTimeoutMs` → timed_out.
 */

import { HARBOR_HOST } from './builds-store';
import type { DeploymentBuildState, DeploymentRecord } from './components-store';
import type { AppliedJob, SandboxContext, SandboxTimers } from './context';
import { timersOf } from './context';
import { type ComponentInfo, isScheduledRun, isSourceBuild } from './tool-config';

type Phase = 'pending' | 'start-builds' | 'wait-builds' | 'runs';

const BUILD_STATES: Record<string, DeploymentBuildState> = {
  BUILD_PENDING: 'pending',
  BUILD_RUNNING: 'running',
  BUILD_SUCCESS: 'successful',
  BUILD_FAILURE: 'failed',
  BUILD_TIMEOUT: 'failed',
  BUILD_CANCELLED: 'cancelled',
  BUILD_UNKNOWN: 'unknown',
};

/** The jobs `imagename` of a build-service image: `tool-<t>/<img>:latest` (registry and digest dropped). */
export function jobImageName(destinationImage: string): string {
  return destinationImage.replace(`${HARBOR_HOST}/`, '').replace(/@sha256:[0-9a-f]+$/, '');
}

/** Turns a component's `run` into the job a deployment applies. */
export function componentJob(name: string, component: ComponentInfo, imagename: string): AppliedJob {
  // The run's shape decides (C components/deploy_task.py `match component_info`), not component_type.
  const run = component.run;
  const scheduled = isScheduledRun(run);
  const job: AppliedJob = {
    name,
    cmd: run.command,
    imagename,
    job_type: scheduled ? 'scheduled' : 'continuous',
  };
  if (scheduled) job.schedule = run.schedule;
  if (run.cpu !== undefined) job.cpu = run.cpu;
  if (run.memory !== undefined) job.memory = run.memory;
  if (!scheduled) {
    if (run.replicas !== undefined) job.replicas = run.replicas;
    if (run.port !== undefined) job.port = run.port;
    if (run.publish !== undefined) job.publish = run.publish;
  }
  return job;
}

/** Drives deployments of one sandbox. */
export class DeploymentRunner {
  private readonly timers: SandboxTimers;
  private readonly running = new Map<DeploymentRecord, () => void>();

  constructor(private readonly ctx: SandboxContext) {
    this.timers = timersOf(ctx);
  }

  /** Starts the lifecycle of a freshly created (pending) deployment. */
  start(record: DeploymentRecord): void {
    this.schedule(record, 'pending');
  }

  /** Stops driving a deployment (it was deleted). */
  forget(record: DeploymentRecord): void {
    this.running.get(record)?.();
    this.running.delete(record);
  }

  /** Flags a deployment for cancellation; the next step cancels it. */
  requestCancel(record: DeploymentRecord): void {
    record.data.status = 'cancelling';
  }

  private get timeoutMs(): number {
    return this.ctx.timings.deploymentTimeoutMs ?? this.ctx.timings.stepMs * 200;
  }

  private schedule(record: DeploymentRecord, phase: Phase): void {
    const stop = this.timers.after(this.ctx.timings.stepMs, () => {
      this.running.delete(record);
      this.step(record, phase);
    });
    this.running.set(record, stop);
  }

  private step(record: DeploymentRecord, phase: Phase): void {
    const data = record.data;
    if (data.status === 'cancelling') {
      this.cancel(record);
      return;
    }
    if (data.status !== 'pending' && data.status !== 'running') return;
    if (this.ctx.timings.holdDeployments) {
      this.schedule(record, phase);
      return;
    }
    if (Date.now() - record.createdAt > this.timeoutMs) {
      this.timeOut(record);
      return;
    }
    try {
      const next = this.advance(record, phase);
      if (next) this.schedule(record, next);
    } catch (error) {
      data.status = 'failed';
      data.long_status = `Got exception: ${error instanceof Error ? error.message : String(error)}`;
      this.skipPending(record, 'skipped');
    }
  }

  /** Runs one phase; returns the next one, or undefined when the deployment ended. */
  private advance(record: DeploymentRecord, phase: Phase): Phase | undefined {
    const data = record.data;
    const components = data.tool_config?.components ?? {};
    switch (phase) {
      case 'pending':
        data.status = 'running';
        data.long_status = `Started at ${new Date().toISOString()}`;
        return 'start-builds';
      case 'start-builds':
        // Nothing to wait for when every build was reused or not needed: run in the next step.
        return this.startBuilds(record, components) ? 'wait-builds' : 'runs';
      case 'wait-builds':
        return this.pollBuilds(record) ? 'runs' : data.status === 'running' ? 'wait-builds' : undefined;
      case 'runs':
        this.applyRuns(record, components);
        return undefined;
    }
  }

  /** Starts (or reuses) the builds; returns whether any build was started. */
  private startBuilds(record: DeploymentRecord, components: Record<string, ComponentInfo>): boolean {
    const builds = this.ctx.builds;
    let started = false;
    for (const [name, component] of Object.entries(components)) {
      const info = record.data.builds[name];
      if (!info) continue;
      const build = component.build;
      if (!isSourceBuild(build)) {
        info.build_id = 'no-build-needed';
        info.build_status = 'successful';
        info.build_long_status = `Reuses the build of component ${build.reuse_from}`;
        continue;
      }
      const params = { source_url: build.repository, ref: build.ref, image_name: name };
      const existing = record.data.force_build
        ? undefined
        : builds?.findSuccessfulBuild?.(record.tool, params);
      if (existing || !builds) {
        info.build_id = 'no-build-needed';
        info.build_status = 'skipped';
        info.build_image = existing?.image ?? `${HARBOR_HOST}/tool-${record.tool}/${name}:latest`;
        info.build_long_status = existing
          ? `Found an existing build ${existing.id} for ${build.repository}@${build.ref}, skipping the build`
          : 'No build service in this sandbox, skipping the build';
        continue;
      }
      info.build_id = builds.startBuild(record.tool, params);
      info.build_status = 'pending';
      info.build_long_status = `Started build ${info.build_id}`;
      started = true;
    }
    return started;
  }

  /** Updates build states; true when every build succeeded (or was not needed). */
  private pollBuilds(record: DeploymentRecord): boolean {
    const builds = this.ctx.builds;
    const data = record.data;
    let waiting = false;
    for (const info of Object.values(data.builds)) {
      if (info.build_id === 'no-build-needed' || info.build_id === 'no-id-yet') continue;
      if (info.build_status === 'successful' || info.build_status === 'failed') continue;
      const status = builds?.buildStatus(record.tool, info.build_id);
      if (status === undefined) {
        info.build_status = 'failed';
        info.build_long_status = `Build ${info.build_id} not found, maybe someone deleted it?`;
        continue;
      }
      info.build_status = BUILD_STATES[status] ?? 'unknown';
      info.build_long_status = `Build ${info.build_id} is ${status}`;
      if (info.build_status === 'successful') {
        info.build_image = builds?.buildImage(record.tool, info.build_id) ?? info.build_image;
      } else if (info.build_status === 'cancelled') {
        info.build_status = 'failed';
      } else if (info.build_status !== 'failed') {
        waiting = true;
      }
    }
    if (waiting) return false;
    const failed = Object.entries(data.builds)
      .filter(([, info]) => info.build_status === 'failed')
      .map(([name, info]) => `${name}(id:${info.build_id})`);
    if (failed.length) {
      data.status = 'failed';
      data.long_status = `Got exception: Some builds failed, you can check the build logs for more info: ${failed.join(' ')}`;
      this.skipPending(record, 'skipped');
      return false;
    }
    return true;
  }

  private applyRuns(record: DeploymentRecord, components: Record<string, ComponentInfo>): void {
    const data = record.data;
    const failures: string[] = [];
    for (const [name, component] of Object.entries(components)) {
      const run = data.runs[name];
      if (!run) continue;
      const source = isSourceBuild(component.build) ? name : component.build.reuse_from;
      const image = jobImageName(data.builds[source]?.build_image ?? `tool-${record.tool}/${source}:latest`);
      const jobs = this.ctx.jobs;
      if (!jobs) {
        run.run_status = 'successful';
        run.run_long_status = 'Applied (no jobs service in this sandbox)';
        continue;
      }
      try {
        const changed = jobs.applyJob(record.tool, componentJob(name, component, image));
        if (!changed && data.force_run) {
          jobs.restartJob(record.tool, name);
          run.run_long_status = `Job ${name} restarted`;
        } else {
          run.run_long_status = changed
            ? `Job ${name} created or updated`
            : `Job ${name} is already up to date`;
        }
        run.run_status = 'successful';
      } catch (error) {
        run.run_status = 'failed';
        run.run_long_status = error instanceof Error ? error.message : String(error);
        failures.push(`${name}: ${run.run_long_status}`);
      }
    }
    if (failures.length) {
      data.status = 'failed';
      data.long_status = `Got exception: Failed to run some components: ${failures.join('; ')}`;
      return;
    }
    data.status = 'successful';
    data.long_status = `Finished at ${new Date().toISOString()}`;
  }

  private cancel(record: DeploymentRecord): void {
    for (const info of Object.values(record.data.builds)) {
      if (info.build_status === 'pending' || info.build_status === 'running') {
        if (info.build_id !== 'no-id-yet') this.ctx.builds?.cancelBuild?.(record.tool, info.build_id);
        info.build_status = info.build_id === 'no-id-yet' ? 'skipped' : 'cancelled';
      }
    }
    this.skipPending(record, 'skipped');
    record.data.status = 'cancelled';
    record.data.long_status = `Cancelled at ${new Date().toISOString()}`;
  }

  private timeOut(record: DeploymentRecord): void {
    for (const info of Object.values(record.data.builds)) {
      if (
        (info.build_status === 'pending' || info.build_status === 'running') &&
        info.build_id !== 'no-id-yet'
      ) {
        this.ctx.builds?.cancelBuild?.(record.tool, info.build_id);
        info.build_status = 'cancelled';
      }
    }
    this.skipPending(record, 'skipped');
    record.data.status = 'timed_out';
    record.data.long_status = `Timed out after ${Math.round(this.timeoutMs / 1000)}s, the deployment took too long`;
  }

  private skipPending(record: DeploymentRecord, state: 'skipped'): void {
    for (const info of Object.values(record.data.builds)) {
      if (info.build_status === 'pending' && info.build_id === 'no-id-yet') info.build_status = state;
    }
    for (const run of Object.values(record.data.runs)) {
      if (run.run_status === 'pending') run.run_status = state;
    }
  }
}
