/**
 * The plan of a rollback: which successful deployment to return to, and for each component built
 * from a repository the commit it runs now and the commit it will be pinned to (components-api
 * `SourceBuildInfo.ref` takes a branch, a tag or a commit SHA). Every reason not to roll back is a
 * `UsageError` raised here, before anything is asked or changed.
 */
import { UpstreamError, UsageError } from '../../src/core/errors';
import type { Translator } from '../../src/i18n/translate';
import type { Deployment, ToolConfig, ToolhostClient } from '../../src/services/toolhost';
import { table } from '../format';
import type { ToolhostServices } from './context';
import { deploymentStateWord } from './deployment-states';
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

/** The usual hint of a refusal: where to see the deployments. */
function listHint(say: Translator, tool: string): string {
  return say.t('rollback-list-hint', tool);
}

async function currentConfig(client: ToolhostClient, tool: string): Promise<ToolConfig> {
  try {
    return await client.components.getConfig();
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404)
      throw UsageError.inWords((say) => ({ message: say.t('rollback-no-configuration', tool) }));
    throw error;
  }
}

function chooseTarget(tool: string, all: Deployment[], to: string | undefined): Deployment {
  const newest = all[0];
  if (!newest) throw UsageError.inWords((say) => ({ message: say.t('rollback-no-deployments', tool) }));
  if (newest.status === 'pending' || newest.status === 'running' || newest.status === 'cancelling')
    throw UsageError.inWords((say) => ({
      message: say.t(
        'rollback-newest-unfinished',
        newest.deploy_id,
        tool,
        deploymentStateWord(say, newest.status),
      ),
      hint: say.t('rollback-newest-unfinished-hint', tool, newest.deploy_id),
    }));
  if (to) {
    const chosen = all.find((d) => d.deploy_id === to);
    if (!chosen)
      throw UsageError.inWords((say) => ({
        message: say.t('rollback-target-not-found', to, tool),
        hint: listHint(say, tool),
      }));
    if (chosen.status !== 'successful')
      throw UsageError.inWords((say) => ({
        message:
          chosen.status === 'failed'
            ? say.t('rollback-target-failed', to, tool)
            : say.t('rollback-target-unsuccessful', to, tool, deploymentStateWord(say, chosen.status)),
        hint: listHint(say, tool),
      }));
    return chosen;
  }
  const earlier = all.slice(1).find((d) => d.status === 'successful');
  if (!earlier)
    throw UsageError.inWords((say) => ({
      message: say.t('rollback-no-earlier', tool),
      hint: listHint(say, tool),
    }));
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
    throw UsageError.inWords((say) => ({
      message: say.t('rollback-remote-configuration', tool, config.source_url as string),
      hint: say.t('rollback-remote-configuration-hint'),
    }));
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
      throw UsageError.inWords((say) => ({
        message: then
          ? say.t('rollback-component-reused', name, target.deploy_id, String(then.reuseFrom))
          : say.t('rollback-component-missing', name, tool, target.deploy_id),
        hint: say.t('rollback-component-hint'),
      }));
    if (then.repository !== build.repository) {
      const { repository } = then;
      throw UsageError.inWords((say) => ({
        message: say.t(
          'rollback-component-moved',
          name,
          String(build.repository),
          repository,
          target.deploy_id,
        ),
        hint: say.t('rollback-component-moved-hint'),
      }));
    }
    if (!then.commit)
      throw UsageError.inWords((say) => ({
        message: say.t('rollback-commit-forgotten', name, target.deploy_id),
        hint: listHint(say, tool),
      }));
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
    throw UsageError.inWords((say) => ({ message: say.t('rollback-no-repository', tool) }));
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
export function planTable(plan: RollbackPlan, say: Translator): string {
  const rows = plan.pins.map((pin) => [
    pin.component,
    shortSha(pin.from),
    shortSha(pin.to),
    FULL_SHA.test(pin.ref) ? `pinned ${shortSha(pin.ref)}` : pin.ref,
  ]);
  // Shown under the confirmation question, in its language; column heads as the platform's CLI writes them.
  const lines = [table([['COMPONENT', 'FROM', 'TO', 'REF NOW'], ...rows])];
  if (plan.followers.length) lines.push(say.t('rollback-plan-following', plan.followers.join(', ')));
  return lines.join('\n');
}
