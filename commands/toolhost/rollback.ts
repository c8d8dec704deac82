/**
 * `/deployment rollback` and `/deployment unpin`. The platform has no rollback verb; its components
 * configuration takes a commit SHA as `build.ref`, so a rollback pins each component to the commit
 * the chosen successful deployment built (its builds' `resolved_ref`) and deploys. The branch each
 * component followed is remembered so that `/deployment unpin` can put it back.
 */
import { z } from 'zod';
import { UpstreamError, UsageError } from '../../src/core/errors';
import { replyLanguage } from '../../src/core/languages';
import { fingerprint } from '../../src/core/target';
import { t, translator } from '../../src/i18n/translate';
import type { ToolConfig } from '../../src/services/toolhost';
import { toolName } from '../args';
import { withWarnings } from '../format';
import { command, type ToolhostServices } from './context';
import { deploymentCard } from './deployment-card';
import { postFollowing } from './follow';
import { deliveryTag, taggedDescription } from './recognise';
import { deploymentsNewestFirst, FULL_SHA, shortSha } from './rollback-commits';
import { pinnedConfig, planRollback, planTable } from './rollback-plan';
import { deployRollbackSignature } from './rollback-signature';

/** How long the branch a pinned component followed is remembered. */
const BRANCH_TTL_SECONDS = 365 * 24 * 3600;
const branchesKey = (tool: string) => `rollback-branches:${tool}`;

async function rememberedBranches(services: Pick<ToolhostServices, 'locks'>, tool: string) {
  const raw = await services.locks.recall(branchesKey(tool));
  return raw ? (JSON.parse(raw) as Record<string, string>) : {};
}

/** `/deployment rollback <tool> [--to <deployment id>]`. */
export const deployRollbackCommand = command({
  ...deployRollbackSignature,
  examples: ['/deployment rollback mytool', '/deployment rollback mytool --to 20261122-101500-abcdefghij'],
  permission: 'write',
  guarded: true,
  overridable: true,
  // The target's label is the line on unpinning (below): it follows the question.
  confirm: (args, target, say = translator('en')) =>
    [
      say.t('rollback-confirm', args.tool, String(args.to)),
      target && say.t('rollback-confirm-unpin', args.tool),
    ]
      .filter(Boolean)
      .join(' '),
  async resolve({ args, services, invocation }) {
    const client = services.toolhost.forTool(args.tool);
    const plan = await planRollback(services, client, args.tool, args.to);
    const say = translator(replyLanguage(invocation));
    return {
      label: say.t('rollback-confirm-unpin', args.tool),
      args: { ...args, to: plan.target.deploy_id },
      version: fingerprint({ config: plan.config, newest: plan.newest.deploy_id, pins: plan.pins }),
      preview: { text: planTable(plan, say) },
    };
  },
  async run({ args, services, reply, invocation, say = translator(undefined) }) {
    const client = services.toolhost.forTool(args.tool);
    const plan = await planRollback(services, client, args.tool, args.to);
    const branches = await rememberedBranches(services, args.tool);
    for (const pin of plan.pins) if (!FULL_SHA.test(pin.ref)) branches[pin.component] = pin.ref;
    await services.locks.remember(branchesKey(args.tool), JSON.stringify(branches), BRANCH_TTL_SECONDS);
    await client.components.setConfig(pinnedConfig(plan));
    // The deployment's description is kept by the platform for everyone who lists it: English.
    const description = taggedDescription(
      t('en', 'rollback-deployment-description', plan.target.deploy_id),
      deliveryTag(invocation),
    );
    let deployment: Awaited<ReturnType<typeof client.components.createDeployment>>;
    try {
      deployment = await client.components.createDeployment({
        forceBuild: false,
        forceRun: false,
        ...(description ? { description } : {}),
      });
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 409)
        throw UsageError.inWords((say) => ({
          message: say.t('rollback-overtaken', args.tool),
          hint: say.t('rollback-overtaken-hint', args.tool),
        }));
      throw error;
    }
    const moved = plan.pins
      .map((p) => `${p.component} ${shortSha(p.from, say)} → ${shortSha(p.to, say)}`)
      .join(', ');
    const note = say.t('rollback-started', plan.target.deploy_id, moved);
    const work = { kind: 'deployment', id: deployment.deploy_id, started: true, language: say.language };
    const card = deploymentCard(args.tool, deployment, note, undefined, say);
    return postFollowing({ args, services, invocation, reply }, client, card, work);
  },
});

/** The branch each pinned component returns to; throws when one is not known. */
async function branchesToRestore(
  services: Pick<ToolhostServices, 'locks' | 'toolhost'>,
  tool: string,
  config: ToolConfig,
): Promise<Array<{ component: string; commit: string; branch: string }>> {
  const pinned = Object.entries(config.components)
    .map(([name, c]) => ({ name, build: c.build as { repository?: string; ref?: string } }))
    .filter(({ build }) => build.ref !== undefined && FULL_SHA.test(build.ref));
  if (pinned.length === 0)
    throw UsageError.inWords((say) => ({ message: say.t('rollback-unpin-nothing', tool) }));
  const remembered = await rememberedBranches(services, tool);
  const deployments = await deploymentsNewestFirst(services.toolhost.forTool(tool));
  return pinned.map(({ name, build }) => {
    const seen = deployments
      .map((d) => d.tool_config?.components[name]?.build as { repository?: string; ref?: string } | undefined)
      .find((b) => b?.repository === build.repository && b?.ref !== undefined && !FULL_SHA.test(b.ref));
    const branch = remembered[name] ?? seen?.ref;
    if (!branch)
      throw UsageError.inWords((say) => ({
        message: say.t('rollback-unpin-branch-unknown', name, tool),
        hint: say.t('rollback-unpin-branch-unknown-hint', tool),
      }));
    return { component: name, commit: build.ref as string, branch };
  });
}

/** `/deployment unpin <tool>`: components pinned to a commit follow their branch again. */
export const deployUnpinCommand = command({
  name: 'deployment unpin',
  args: z.object({ tool: toolName }),
  permission: 'write',
  guarded: true,
  overridable: true,
  async run({ args, services, say = translator(undefined) }) {
    const client = services.toolhost.forTool(args.tool);
    const config = await client.components.getConfig();
    const restore = await branchesToRestore(services, args.tool, config);
    const next = structuredClone(config);
    for (const { component, branch } of restore) {
      const target = next.components[component];
      if (target) (target.build as { ref: string }).ref = branch;
    }
    await client.components.setConfig(next);
    const remembered = await rememberedBranches(services, args.tool);
    for (const { component } of restore) delete remembered[component];
    await services.locks.remember(branchesKey(args.tool), JSON.stringify(remembered), BRANCH_TTL_SECONDS);
    const lines = restore.map((r) =>
      say.t('rollback-unpinned-component', r.component, r.branch, shortSha(r.commit, say)),
    );
    return withWarnings(
      {
        text: say.t('rollback-unpinned', args.tool, lines.join('; ')),
        status: 'success',
      },
      client,
    );
  },
});
