/**
 * Shared state of the tool hosting platform emulator: the seeded tools, the pacing, and the facades
 * through which one API area drives another (a deployment starts builds, then applies jobs).
 * Each area (builds, components, jobs, logs, envvars) lives in its own module with its own state.
 */

/** Pacing of the emulator's lifecycles. */
export interface SandboxTimings {
  /** Duration of one lifecycle step (pending → running, running → done, …), in ms. */
  stepMs: number;
  /**
   * A deployment still pending or running after this long becomes `timed_out` (the real worker gives
   * up after 1 h). Default: 200 steps.
   */
  deploymentTimeoutMs?: number | undefined;
  /** While true, deployments stay in the state they are in (tests that need one still running). */
  holdDeployments?: boolean;
}

/** The git remote builds clone from (see {@link SandboxContext.sources}). */
export interface SourcesFacade {
  resolve(url: string, ref: string): { sha: string; failsBuild: boolean } | undefined;
}

/** What the builds area offers to the other areas. */
export interface BuildsFacade {
  /** Starts a build as `POST /builds` would (no auth, no quota check); returns its id. */
  startBuild(tool: string, params: { source_url: string; ref?: string; image_name?: string }): string;
  /** Current status (`BUILD_PENDING` …) of a build, or undefined when unknown. */
  buildStatus(tool: string, id: string): string | undefined;
  /** Destination image of a build (once it succeeded). */
  buildImage(tool: string, id: string): string | undefined;
  /**
   * Cancels a pending or running build as `PUT /builds/{id}/cancel` would; false when it does not
   * exist or has already finished. Optional so that fakes of this facade stay small.
   */
  cancelBuild?(tool: string, id: string): boolean;
  /**
   * The newest successful build of `source_url` at `ref` whose image is `image_name`, if any (what
   * a deployment reuses unless `force-build` is set). Optional, like {@link cancelBuild}.
   */
  findSuccessfulBuild?(
    tool: string,
    params: { source_url: string; ref?: string; image_name?: string },
  ): { id: string; image: string } | undefined;
}

/** A job definition as a deployment applies it (components `run` → jobs `PATCH`). */
export interface AppliedJob {
  name: string;
  cmd: string;
  imagename: string;
  job_type: 'continuous' | 'scheduled';
  schedule?: string;
  cpu?: string;
  memory?: string;
  replicas?: number;
  port?: number;
  /** `/` publishes the job (components `run.publish`, passed through as the jobs API's `publish`). */
  publish?: string;
}

/** What the jobs area offers to the other areas. */
export interface JobsFacade {
  /** Creates or updates a job as `PATCH /jobs` would; returns true when it changed. */
  applyJob(tool: string, job: AppliedJob): boolean;
  /** Restarts a job as `POST /jobs/{id}/restart` would; false when it does not exist. */
  restartJob(tool: string, name: string): boolean;
  /** The tool's jobs, used by components `config/generate`. Optional. */
  listJobs?(tool: string): AppliedJob[];
}

/** What the envvars area offers to the other areas (components stores `TOOL_DEPLOY_TOKEN`). */
export interface EnvvarsFacade {
  /** Creates or overwrites an envvar as `POST /envvars` would. */
  setEnvvar(tool: string, name: string, value: string): void;
  /** Deletes an envvar if it exists. Optional. */
  deleteEnvvar?(tool: string, name: string): void;
}

/**
 * Timers and open streams of one sandbox. Every lifecycle timer is registered here (and unref'd),
 * so `close()` can stop them all at once. Created by `startToolhostSandbox`; an area that finds it
 * missing creates it (`ctx.timers ??= new SandboxTimers()`).
 */
export class SandboxTimers {
  private readonly timeouts = new Set<NodeJS.Timeout>();
  private readonly closers = new Set<() => void>();
  private readonly breakers = new Set<() => void>();
  private closedFlag = false;

  /** True once {@link close} ran; no new timers start after that. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** Runs `fn` once after `ms` (unref'd); returns a cancel function. */
  after(ms: number, fn: () => void): () => void {
    if (this.closedFlag) return () => {};
    const handle = setTimeout(() => {
      this.timeouts.delete(handle);
      fn();
    }, ms);
    handle.unref();
    this.timeouts.add(handle);
    return () => {
      clearTimeout(handle);
      this.timeouts.delete(handle);
    };
  }

  /** Registers cleanup (e.g. closing a log stream) to run at {@link close}; returns an unregister function. */
  onClose(fn: () => void): () => void {
    if (this.closedFlag) {
      fn();
      return () => {};
    }
    this.closers.add(fn);
    return () => this.closers.delete(fn);
  }

  /** Registers how to cut an open stream short (see {@link breakStreams}); returns an unregister function. */
  onBreak(fn: () => void): () => void {
    this.breakers.add(fn);
    return () => this.breakers.delete(fn);
  }

  /** Ends every open live log stream now, as a network cut or a gateway restart would. */
  breakStreams(): void {
    for (const fn of [...this.breakers]) fn();
    this.breakers.clear();
  }

  /** Clears every timer and runs every cleanup. Idempotent. */
  close(): void {
    this.closedFlag = true;
    for (const handle of this.timeouts) clearTimeout(handle);
    this.timeouts.clear();
    const closers = [...this.closers];
    this.closers.clear();
    for (const fn of closers) {
      try {
        fn();
      } catch {
        // closing is best effort
      }
    }
  }
}

/** The context every area module receives. */
export interface SandboxContext {
  timings: SandboxTimings;
  /** Tools that exist on this platform. Requests for any other tool get the API's 404/401. */
  tools: Set<string>;
  /** Set by the builds area once created. */
  builds?: BuildsFacade;
  /** Set by the jobs area once created. */
  jobs?: JobsFacade;
  /** Set by the envvars area once created. */
  envvars?: EnvvarsFacade;
  /**
   * Where builds clone from: the commit a repository URL names at a ref (the source host emulator,
   * when it runs alongside). Without it, or for a repository it does not host, a branch resolves
   * to a stable made-up commit and a full commit SHA to itself.
   */
  sources?: SourcesFacade;
  /** Timers and streams to stop at close (see {@link SandboxTimers}). */
  timers?: SandboxTimers;
  /**
   * Deprecation warnings to add to `messages.warning`, keyed `<area>.<operationId>`
   * (e.g. `builds.list`), as a deprecated endpoint of the real APIs does.
   */
  deprecations?: Map<string, string>;
  /** Domain published jobs are served under (`<tool>.<domain>`); default `toolforge.org` (jobs-publish.ts). */
  publicDomain?: string;
}

/** The timers of a context, created on first use. */
export function timersOf(ctx: SandboxContext): SandboxTimers {
  ctx.timers ??= new SandboxTimers();
  return ctx.timers;
}
