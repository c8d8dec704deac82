/**
 * Which commit each component of a deployment was built from. The platform's deployment names a
 * build per component (components-api `Deployment.builds[component].build_id`) and each build
 * records the commit its ref resolved to (builds-api `Build.resolved_ref`); a component whose image
 * was reused (`no-build-needed`) was built earlier from the same ref, which the tool's kept builds
 * tell. Builds are pruned after a while, so what Deckhand learns of a finished deployment is
 * remembered (one record per deployment).
 */
import { type Translator, translator } from '../../src/i18n/translate';
import type { Deployment, ToolConfig, ToolhostClient } from '../../src/services/toolhost';
import type { ToolhostServices } from './context';

/** How long the commits of a finished deployment are remembered. */
const RECORD_TTL_SECONDS = 180 * 24 * 3600;

/** A full commit SHA (what a pinned `build.ref` holds). */
export const FULL_SHA = /^[0-9a-f]{40}$/i;

/** One component of a deployment and the source it was built from. */
export interface ComponentSource {
  /** `build.repository` (absent for a component that reuses another's image). */
  repository?: string;
  /** `build.ref`: a branch, a tag or a commit. */
  ref?: string;
  /** `build.reuse_from`. */
  reuseFrom?: string;
  /** The commit built (`resolved_ref`), when known. */
  commit?: string;
}

/** Component name → its source, for one deployment. */
export type DeploymentCommits = Record<string, ComponentSource>;

const recordKey = (tool: string, deployId: string) => `deployment-commits:${tool}:${deployId}`;

/** The source of each component as the configuration names it (without commits). */
export function configSources(config: ToolConfig | null | undefined): DeploymentCommits {
  const out: DeploymentCommits = {};
  for (const [name, component] of Object.entries(config?.components ?? {})) {
    const build = component.build as { repository?: string; ref?: string; reuse_from?: string };
    out[name] =
      build.reuse_from !== undefined
        ? { reuseFrom: build.reuse_from }
        : { repository: build.repository as string, ref: build.ref as string };
  }
  return out;
}

/** The commit the build `buildId` resolved its ref to, when the build is still kept. */
async function builtCommit(client: ToolhostClient, buildId: string): Promise<string | undefined> {
  if (buildId.startsWith('no-')) return undefined;
  return (await client.builds.show(buildId).catch(() => undefined))?.resolved_ref;
}

/** The newest kept successful build of `repository` at `ref`: what `no-build-needed` reused. */
async function reusedCommit(client: ToolhostClient, source: ComponentSource): Promise<string | undefined> {
  if (source.ref && FULL_SHA.test(source.ref)) return source.ref.toLowerCase();
  const builds = await client.builds.list().catch(() => []);
  const match = builds
    .filter((b) => b.status === 'BUILD_SUCCESS' && b.parameters?.source_url === source.repository)
    .filter((b) => (b.parameters?.ref ?? '') === (source.ref ?? ''))
    .sort((a, b) => (b.start_time ?? '').localeCompare(a.start_time ?? ''))[0];
  return match?.resolved_ref;
}

/**
 * The commit each component of `deployment` was built from: remembered, or read from the platform
 * (and remembered once the deployment has finished, so it outlives the builds).
 */
export async function deploymentCommits(
  services: Pick<ToolhostServices, 'locks'>,
  client: ToolhostClient,
  tool: string,
  deployment: Deployment,
): Promise<DeploymentCommits> {
  const remembered = await services.locks.recall(recordKey(tool, deployment.deploy_id));
  if (remembered) return JSON.parse(remembered) as DeploymentCommits;
  const sources = configSources(deployment.tool_config);
  for (const [name, source] of Object.entries(sources)) {
    if (source.reuseFrom !== undefined) continue;
    const build = deployment.builds[name];
    const commit =
      build?.build_id === 'no-build-needed'
        ? await reusedCommit(client, source)
        : build
          ? await builtCommit(client, build.build_id)
          : undefined;
    if (commit) source.commit = commit;
  }
  for (const source of Object.values(sources)) {
    const parent = source.reuseFrom === undefined ? undefined : sources[source.reuseFrom];
    if (parent?.commit) source.commit = parent.commit;
  }
  const finished = deployment.status === 'successful' || deployment.status === 'failed';
  const complete = Object.values(sources).every((s) => s.commit || s.reuseFrom !== undefined);
  if (finished && complete) {
    await services.locks.remember(
      recordKey(tool, deployment.deploy_id),
      JSON.stringify(sources),
      RECORD_TTL_SECONDS,
    );
  }
  return sources;
}

/** The tool's deployments, newest first. */
export async function deploymentsNewestFirst(client: ToolhostClient): Promise<Deployment[]> {
  // The platform lists them oldest first; within one second of each other that order decides.
  const all = await client.components.listDeployments();
  return [...all].reverse().sort((a, b) => b.creation_time.localeCompare(a.creation_time));
}

/**
 * The newest successful deployment older than `deployment` in `newestFirst`, if the platform still
 * lists one.
 */
export function previousSuccessful(
  newestFirst: Deployment[],
  deployment: Deployment,
): Deployment | undefined {
  const index = newestFirst.findIndex((d) => d.deploy_id === deployment.deploy_id);
  if (index < 0) return undefined;
  return newestFirst.slice(index + 1).find((d) => d.status === 'successful');
}

/** A commit as messages show it (12 characters). */
export function shortSha(sha: string | undefined, say: Translator = translator('en')): string {
  return sha ? sha.slice(0, 12) : say.t('rollback-commit-unknown');
}
