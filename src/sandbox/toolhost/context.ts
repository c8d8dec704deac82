/**
 * Shared state of the tool hosting platform emulator: the seeded tools, the pacing, and the facades
 * through which one API area drives another (a deployment starts builds, then applies jobs).
 * Each area (builds, components, jobs, logs, envvars) lives in its own module with its own state.
 */

/** Pacing of the emulator's lifecycles. */
export interface SandboxTimings {
  /** Duration of one lifecycle step (pending → running, running → done, …), in ms. */
  stepMs: number;
}

/** What the builds area offers to the other areas. */
export interface BuildsFacade {
  /** Starts a build as `POST /builds` would (no auth, no quota check); returns its id. */
  startBuild(tool: string, params: { source_url: string; ref?: string; image_name?: string }): string;
  /** Current status (`BUILD_PENDING` …) of a build, or undefined when unknown. */
  buildStatus(tool: string, id: string): string | undefined;
  /** Destination image of a build (once it succeeded). */
  buildImage(tool: string, id: string): string | undefined;
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
}

/** What the jobs area offers to the other areas. */
export interface JobsFacade {
  /** Creates or updates a job as `PATCH /jobs` would; returns true when it changed. */
  applyJob(tool: string, job: AppliedJob): boolean;
  /** Restarts a job as `POST /jobs/{id}/restart` would; false when it does not exist. */
  restartJob(tool: string, name: string): boolean;
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
}
