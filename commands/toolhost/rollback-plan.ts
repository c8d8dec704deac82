/**
 * The plan of a rollback: which successful deployment to return to, and for each component built
 * from a repository the commit it runs now and the commit it will be pinned to (components-api
 * `SourceBuildInfo.ref` takes a branch, a tag or a commit SHA). Every reason not to roll back is a
 * `UsageError` raised here, before anything is asked or changed.
 */
import { UpstreamError, UsageError } from '../../src/core/errors';
import type { Deployment, ToolConfig, ToolhostClient } from '../../src/services/toolhost';
import { table } from '../format';
import type { ToolhostServices } from './context';
import { deploymentCommits, deploymentsNewestFirst, FULL_SHA, shortSha } from './rollback-commits';

/** One component to pin. */
export interface RollbackPin {
  component: string;
  repository: string;
  /** `build.ref` now (a branch, a tag, or a commit when already pinned). */
  ref: string;
  /** The commit the newest deployment built, when known. */
  from?: string;
  /** The commit the target deployment built. */
  to: string;
}

/** What a rollback does. */
export interface RollbackPlan {
  target: Deployment;
  newest: Deployment;
  config: ToolConfig;
  pins: RollbackPin[];
  /** Components that reuse another component's image (they follow it). */
  followers: string[];
}

const LIST_HINT = (tool: string) => `See /deployment list ${tool}. Nothing was changed.`;

async function currentConfig(client: ToolhostClient, tool: string): Promise<ToolConfig> {
  try {
    return await client.components.getConfig();
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404)
      throw new UsageError(`${tool} has no components configuration, so there is nothing to roll back.`);
    throw error;
  }
}

function chooseTarget(tool: string, all: Deployment[], to: string | undefined): Deployment {
  const newest = all[0];
  if (!newest) throw new UsageError(`${tool} has no deployments yet, so there is nothing to roll back to.`);
  if (newest.status === 'pending' || newest.status === 'running' || newest.status === 'cancelling')
    throw new UsageError(`Deployment ${newest.deploy_id} of ${tool} is still ${newest.status}.`, {
      hint: `Wait for it, or cancel it with /deployment cancel ${tool} ${newest.deploy_id}. Nothing was changed.`,
    });
  if (to) {
    const chosen = all.find((d) => d.deploy_id === to);
    if (!chosen)
      throw new UsageError(`Deployment ${to} of ${tool} does not exist (the platform keeps the last 25).`, {
        hint: LIST_HINT(tool),
      });
    if (chosen.status !== 'successful')
      throw new UsageError(
        `Deployment ${to} of ${tool} ${chosen.status === 'failed' ? 'failed' : `is ${chosen.status}`}: only a successful deployment can be rolled back to.`,
        { hint: LIST_HINT(tool) },
      );
    return chosen;
  }
  const earlier = all.slice(1).find((d) => d.status === 'successful');
  if (!earlier)
    throw new UsageError(`${tool} has no earlier successful deployment to roll back to.`, {
      hint: LIST_HINT(tool),
    });
  return earlier;
}

/** Works out the rollback of `tool` (to deployment `to`, or the last successful one before the newest). */
export async function planRollback(
  services: Pick<ToolhostServices, 'locks'>,
  client: ToolhostClient,
  tool: string,
  to: string | undefined,
): Promise<RollbackPlan> {
  const config = await currentConfig(client, tool);
  if (config.source_url)
    throw new UsageError(
      `The components configuration of ${tool} is fetched from ${config.source_url} on every deploy, so a pinned commit would not hold.`,
      { hint: 'Pin build.ref in that file instead. Nothing was changed.' },
    );
  const all = await deploymentsNewestFirst(client);
  const target = chooseTarget(tool, all, to);
  const newest = all[0] as Deployment;
  const [built, now] = await Promise.all([
    deploymentCommits(services, client, tool, target),
    newest.deploy_id === target.deploy_id ? undefined : deploymentCommits(services, client, tool, newest),
  ]);
  const pins: RollbackPin[] = [];
  const followers: string[] = [];
  for (const [name, component] of Object.entries(config.components).sort(([a], [b]) => a.localeCompare(b))) {
    const build = component.build as { repository?: string; ref?: string; reuse_from?: string };
    if (build.reuse_from !== undefined) {
      followers.push(`${name} (reuses ${build.reuse_from})`);
      continue;
    }
    const then = built[name];
    if (!then?.repository)
      throw new UsageError(
        then
          ? `Component ${name} was not built from a repository in deployment ${target.deploy_id} (it reused ${then.reuseFrom}), so there is no commit to pin it to.`
          : `Component ${name} of ${tool} was not part of deployment ${target.deploy_id}, so there is no commit to pin it to.`,
        {
          hint: 'Roll back to a later deployment with --to, or change the configuration with /config set. Nothing was changed.',
        },
      );
    if (then.repository !== build.repository)
      throw new UsageError(
        `Component ${name} is built from ${build.repository} now but was built from ${then.repository} in deployment ${target.deploy_id}.`,
        { hint: 'Change the configuration with /config set instead. Nothing was changed.' },
      );
    if (!then.commit)
      throw new UsageError(
        `Deckhand does not know which commit ${name} was built from in deployment ${target.deploy_id}: the platform no longer keeps its build.`,
        { hint: LIST_HINT(tool) },
      );
    const from = now?.[name]?.commit ?? then.commit;
    pins.push({
      component: name,
      repository: build.repository as string,
      ref: build.ref as string,
      from,
      to: then.commit,
    });
  }
  if (pins.length === 0)
    throw new UsageError(
      `No component of ${tool} is built from a repository, so there is no commit to roll back to.`,
    );
  return { target, newest, config, pins, followers };
}

/** The configuration with each planned component's `build.ref` pinned to its commit. */
export function pinnedConfig(plan: RollbackPlan): ToolConfig {
  const config = structuredClone(plan.config);
  for (const pin of plan.pins) {
    const component = config.components[pin.component];
    if (component) (component.build as { ref: string }).ref = pin.to;
  }
  return config;
}

/** The plan as a table: component, from → to commits, what its ref is now. */
export function planTable(plan: RollbackPlan): string {
  const rows = plan.pins.map((pin) => [
    pin.component,
    shortSha(pin.from),
    shortSha(pin.to),
    FULL_SHA.test(pin.ref) ? `pinned ${shortSha(pin.ref)}` : pin.ref,
  ]);
  const lines = [table([['COMPONENT', 'FROM', 'TO', 'REF NOW'], ...rows])];
  if (plan.followers.length) lines.push(`Following their source: ${plan.followers.join(', ')}`);
  return lines.join('\n');
}
