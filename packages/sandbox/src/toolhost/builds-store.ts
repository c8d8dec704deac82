/**
 * State and lifecycle of the emulated builds API: PipelineRuns per tool, their logs, and the
 * tool's Harbor project (artifacts, storage quota). Each build moves one step per `stepMs`:
 * BUILD_PENDING → BUILD_RUNNING (log lines appear step by step) → BUILD_SUCCESS | BUILD_FAILURE |
 * BUILD_TIMEOUT (see build-script.ts for how the outcome is picked).
 */
import { type BuildOutcome, outcomeFor, scriptLines } from './build-script';
import type { BuildsFacade, SandboxContext, SandboxTimers } from './context';
import { timersOf } from './context';
import { fakeCommit, fakeDigest, newBuildId, rfc3339 } from './ids';

const FULL_SHA = /^[0-9a-f]{40}$/;

/** `BuildStatus` of builds-openapi.yaml. */
export type BuildStatus =
  | 'BUILD_PENDING'
  | 'BUILD_RUNNING'
  | 'BUILD_SUCCESS'
  | 'BUILD_FAILURE'
  | 'BUILD_CANCELLED'
  | 'BUILD_TIMEOUT'
  | 'BUILD_UNKNOWN';

/** `BuildParameters` as stored (defaults filled in). */
export interface StoredBuildParameters {
  source_url: string;
  ref: string;
  image_name: string;
  envvars: Record<string, string>;
  use_latest_versions: boolean;
  use_deprecated_versions: boolean;
}

/** One build (a Tekton PipelineRun). */
export interface BuildRecord {
  id: string;
  tool: string;
  params: StoredBuildParameters;
  resolvedRef: string;
  status: BuildStatus;
  message: string;
  /** Creation time in ms, for ordering (newest first). */
  createdAt: number;
  startTime: string;
  endTime: string;
  lines: string[];
  /** `tools-harbor.wmcloud.org/tool-<tool>/<image>:latest` (digest-pinned once successful). */
  destinationImage: string;
  outcome: BuildOutcome;
  sizeBytes: number;
}

/** What a log follower hears. */
export type BuildEvent = { type: 'line'; line: string } | { type: 'end' } | { type: 'deleted' };

/** Max unfinished builds per tool (`maxParallelBuilds` in the chart). */
export const MAX_PARALLEL_BUILDS = 4;
/** Retention (D `values/tools.yaml.gotmpl`): successful builds kept per tool. */
export const KEEP_SUCCESSFUL = 4;
/** Retention: failed builds kept per tool. */
export const KEEP_FAILED = 2;
/** Harbor storage quota per tool project. */
export const REGISTRY_LIMIT_BYTES = 5 * 1024 ** 3;
/** Registry host of the build service. */
export const HARBOR_HOST = 'tools-harbor.wmcloud.org';

const FINISHED: ReadonlySet<BuildStatus> = new Set([
  'BUILD_SUCCESS',
  'BUILD_FAILURE',
  'BUILD_TIMEOUT',
  'BUILD_CANCELLED',
]);

/** Whether a build has a completion time. */
export function isFinished(status: BuildStatus): boolean {
  return FINISHED.has(status);
}

/** The state of the builds area of one sandbox. */
export class BuildsStore {
  private readonly builds = new Map<string, BuildRecord>();
  private readonly listeners = new Map<string, Set<(event: BuildEvent) => void>>();
  private readonly stoppers = new Map<string, () => void>();
  /** Harbor projects (created by the first build) and their artifacts' sizes. */
  private readonly artifacts = new Map<string, Array<{ image: string; size: number }>>();
  private readonly storageOverride = new Map<string, number>();
  private readonly timers: SandboxTimers;

  constructor(private readonly ctx: SandboxContext) {
    this.timers = timersOf(ctx);
  }

  /** Builds of a tool, newest first. */
  list(tool: string): BuildRecord[] {
    return [...this.builds.values()]
      .filter((build) => build.tool === tool)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  /** A build by id (any tool). */
  get(id: string): BuildRecord | undefined {
    return this.builds.get(id);
  }

  /** Unfinished builds of a tool (what the parallel limit counts). */
  unfinished(tool: string): number {
    return this.list(tool).filter((build) => !isFinished(build.status)).length;
  }

  /** Starts a build: cleans old ones up (retention), creates the Harbor project, schedules the steps. */
  start(tool: string, params: StoredBuildParameters): BuildRecord {
    this.applyRetention(tool);
    if (!this.artifacts.has(tool)) this.artifacts.set(tool, []);
    const id = newBuildId(tool);
    const source = this.resolve(params.source_url, params.ref);
    const resolvedRef = source.sha;
    const build: BuildRecord = {
      id,
      tool,
      params,
      resolvedRef,
      status: 'BUILD_PENDING',
      message: 'Waiting for the build to start',
      createdAt: this.nextCreatedAt(),
      startTime: '',
      endTime: '',
      lines: [],
      destinationImage: `${HARBOR_HOST}/tool-${tool}/${params.image_name}:latest`,
      outcome: source.failsBuild ? 'failure' : outcomeFor(params.source_url),
      sizeBytes: (120 + (Number.parseInt(resolvedRef.slice(0, 4), 16) % 300)) * 1024 ** 2,
    };
    this.builds.set(id, build);
    this.schedule(build, 0);
    return build;
  }

  /** Adds an already finished build (seed data); `ageMs` back in time. */
  seedFinished(
    tool: string,
    params: StoredBuildParameters,
    outcome: 'success' | 'failure',
    ageMs: number,
  ): BuildRecord {
    if (!this.artifacts.has(tool)) this.artifacts.set(tool, []);
    const started = new Date(Date.now() - ageMs);
    const id = newBuildId(tool);
    const resolvedRef = fakeCommit(params.source_url, params.ref);
    const build: BuildRecord = {
      id,
      tool,
      params,
      resolvedRef,
      status: 'BUILD_RUNNING',
      message: '',
      createdAt: started.getTime(),
      startTime: rfc3339(started),
      endTime: '',
      lines: [],
      destinationImage: `${HARBOR_HOST}/tool-${tool}/${params.image_name}:latest`,
      outcome,
      sizeBytes: (120 + (Number.parseInt(resolvedRef.slice(0, 4), 16) % 300)) * 1024 ** 2,
    };
    for (const step of scriptLines(this.scriptInput(build), outcome)) build.lines.push(...step);
    this.builds.set(id, build);
    this.finish(
      build,
      outcome === 'success' ? 'BUILD_SUCCESS' : 'BUILD_FAILURE',
      new Date(started.getTime() + 95_000),
    );
    return build;
  }

  /** Cancels a pending/running build; returns false if it is not cancellable. */
  cancel(id: string): boolean {
    const build = this.builds.get(id);
    if (!build || isFinished(build.status)) return false;
    this.finish(build, 'BUILD_CANCELLED');
    return true;
  }

  /** Deletes a build; followers of its logs get an in-stream error. */
  delete(id: string): boolean {
    const build = this.builds.get(id);
    if (!build) return false;
    this.stoppers.get(id)?.();
    this.stoppers.delete(id);
    this.builds.delete(id);
    this.emit(id, { type: 'deleted' });
    this.listeners.delete(id);
    return true;
  }

  /** Follows a build's new log lines and its end; returns an unsubscribe function. */
  subscribe(id: string, listener: (event: BuildEvent) => void): () => void {
    let set = this.listeners.get(id);
    if (!set) {
      set = new Set();
      this.listeners.set(id, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Whether the tool's Harbor project exists (created by its first build). */
  hasProject(tool: string): boolean {
    return this.artifacts.has(tool);
  }

  /** Registry storage used by the tool's images, in bytes. */
  storageUsed(tool: string): number {
    const override = this.storageOverride.get(tool);
    if (override !== undefined) return override;
    return (this.artifacts.get(tool) ?? []).reduce((sum, artifact) => sum + artifact.size, 0);
  }

  /** Pretends the tool's images take `bytes` (undefined: back to the real sum). */
  setStorageUsed(tool: string, bytes: number | undefined): void {
    if (!this.artifacts.has(tool)) this.artifacts.set(tool, []);
    if (bytes === undefined) this.storageOverride.delete(tool);
    else this.storageOverride.set(tool, bytes);
  }

  /** Deletes every artifact of the tool (`POST /clean`); returns one line per repository. */
  clean(tool: string): string[] {
    const artifacts = this.artifacts.get(tool) ?? [];
    const perRepo = new Map<string, number>();
    for (const artifact of artifacts) perRepo.set(artifact.image, (perRepo.get(artifact.image) ?? 0) + 1);
    this.artifacts.set(tool, []);
    this.storageOverride.delete(tool);
    return [...perRepo].map(
      ([image, count]) => `Deleted ${count} artifacts from harbor repository tool-${tool}/${image}`,
    );
  }

  /** The facade other areas use (registered on the context by the builds area). */
  facade(): BuildsFacade {
    return {
      startBuild: (tool, params) =>
        this.start(tool, {
          source_url: params.source_url,
          ref: params.ref || 'HEAD',
          image_name: params.image_name || `tool-${tool}`,
          envvars: {},
          use_latest_versions: false,
          use_deprecated_versions: false,
        }).id,
      buildStatus: (tool, id) => {
        const build = this.builds.get(id);
        return build && build.tool === tool ? build.status : undefined;
      },
      buildImage: (tool, id) => {
        const build = this.builds.get(id);
        return build && build.tool === tool && build.status === 'BUILD_SUCCESS'
          ? build.destinationImage
          : undefined;
      },
      cancelBuild: (tool, id) => this.builds.get(id)?.tool === tool && this.cancel(id),
      findSuccessfulBuild: (tool, params) => {
        const commit = this.resolve(params.source_url, params.ref || 'HEAD').sha;
        const image = params.image_name || `tool-${tool}`;
        const found = this.list(tool).find(
          (build) =>
            build.status === 'BUILD_SUCCESS' &&
            build.params.source_url === params.source_url &&
            build.resolvedRef === commit &&
            build.params.image_name === image,
        );
        return found ? { id: found.id, image: found.destinationImage } : undefined;
      },
    };
  }

  /**
   * The commit a build of `url` at `ref` checks out (its `resolved_ref`): from the source host when
   * it hosts the repository; otherwise a full SHA is itself and a branch a stable made-up commit.
   */
  private resolve(url: string, ref: string): { sha: string; failsBuild: boolean } {
    const hosted = this.ctx.sources?.resolve(url, ref);
    if (hosted) return hosted;
    return { sha: FULL_SHA.test(ref) ? ref : fakeCommit(url, ref), failsBuild: false };
  }

  private lastCreatedAt = 0;

  /** Strictly increasing creation times, so "latest" is well defined within one millisecond. */
  private nextCreatedAt(): number {
    this.lastCreatedAt = Math.max(Date.now(), this.lastCreatedAt + 1);
    return this.lastCreatedAt;
  }

  private scriptInput(build: BuildRecord) {
    return {
      sourceUrl: build.params.source_url,
      ref: build.params.ref,
      commit: build.resolvedRef,
      image: build.destinationImage,
      digest: fakeDigest(build.id),
    };
  }

  /** Runs step `step` of a build after one `stepMs`. */
  private schedule(build: BuildRecord, step: number): void {
    const stop = this.timers.after(this.ctx.timings.stepMs, () => {
      this.stoppers.delete(build.id);
      if (this.builds.get(build.id) !== build || isFinished(build.status)) return;
      this.advance(build, step);
    });
    this.stoppers.set(build.id, stop);
  }

  private advance(build: BuildRecord, step: number): void {
    const steps = scriptLines(this.scriptInput(build), build.outcome);
    if (step === 0) {
      build.status = 'BUILD_RUNNING';
      build.startTime = rfc3339(new Date());
    }
    const lines = steps[step];
    if (lines) {
      build.message = 'Tasks Completed: 0 (Failed: 0, Cancelled 0), Incomplete: 1, Skipped: 0';
      for (const line of lines) {
        build.lines.push(line);
        this.emit(build.id, { type: 'line', line });
      }
      this.schedule(build, step + 1);
      return;
    }
    if (build.outcome === 'stuck') return; // runs until cancelled, deleted or the sandbox closes
    const status: Record<BuildOutcome, BuildStatus> = {
      success: 'BUILD_SUCCESS',
      failure: 'BUILD_FAILURE',
      timeout: 'BUILD_TIMEOUT',
      stuck: 'BUILD_RUNNING',
    };
    this.finish(build, status[build.outcome]);
  }

  private finish(build: BuildRecord, status: BuildStatus, at = new Date()): void {
    this.stoppers.get(build.id)?.();
    this.stoppers.delete(build.id);
    build.status = status;
    build.endTime = rfc3339(at);
    if (!build.startTime && status !== 'BUILD_CANCELLED') build.startTime = build.endTime;
    // Tekton condition messages (B internal/build.go adds the "Check the logs" hint on failures).
    switch (status) {
      case 'BUILD_SUCCESS': {
        build.message = 'Tasks Completed: 1 (Failed: 0, Cancelled 0), Skipped: 0';
        build.destinationImage = `${build.destinationImage}@sha256:${fakeDigest(build.id)}`;
        this.artifacts.get(build.tool)?.push({ image: build.params.image_name, size: build.sizeBytes });
        break;
      }
      case 'BUILD_FAILURE':
        build.message = `Tasks Completed: 1 (Failed: 1, Cancelled 0), Skipped: 0. Check the logs with \`toolforge build logs ${build.id}\``;
        break;
      case 'BUILD_TIMEOUT':
        build.message = `PipelineRun "${build.id}" failed to finish within "1h0m0s"`;
        break;
      case 'BUILD_CANCELLED':
        build.message = `PipelineRun "${build.id}" was cancelled`;
        break;
      default:
        break;
    }
    this.emit(build.id, { type: 'end' });
  }

  private emit(id: string, event: BuildEvent): void {
    for (const listener of [...(this.listeners.get(id) ?? [])]) listener(event);
    if (event.type !== 'line') this.listeners.delete(id);
  }

  /**
   * The chart's cleanup before each new build (B `cleanupOldPipelineRuns`): keep unfinished builds,
   * the newest 4 successful and 2 failed; delete everything else (cancelled and timed out included).
   */
  private applyRetention(tool: string): void {
    let ok = 0;
    let failed = 0;
    for (const build of this.list(tool)) {
      if (!isFinished(build.status)) continue;
      if (build.status === 'BUILD_SUCCESS' && ok < KEEP_SUCCESSFUL) {
        ok += 1;
        continue;
      }
      if (build.status === 'BUILD_FAILURE' && failed < KEEP_FAILED) {
        failed += 1;
        continue;
      }
      this.delete(build.id);
    }
  }
}

const stores = new WeakMap<SandboxContext, BuildsStore>();

/** The builds state of a sandbox (created on first use). */
export function buildsStoreOf(ctx: SandboxContext): BuildsStore {
  let store = stores.get(ctx);
  if (!store) {
    store = new BuildsStore(ctx);
    stores.set(ctx, store);
  }
  return store;
}
