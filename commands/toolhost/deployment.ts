import { translators } from '../../src/core/languages';
import { mustExist } from '../../src/core/target';
import { tableTime } from '../../src/core/times';
import { translator } from '../../src/i18n/translate';
import type { ToolhostClient } from '../../src/services/toolhost';
import { parseCompactUtc, table, withWarnings } from '../format';
import { command, toolCommand } from './context';
import { deploymentCard } from './deployment-card';
import { deploymentStateWord } from './deployment-states';
import { postFollowing } from './follow';
import { deploymentCancelSignature, deploymentIdArgs, deploymentShowSignature } from './signatures';

/** `latest` → the id of the tool's most recent deployment. */
async function resolveDeploymentId(client: ToolhostClient, id: string): Promise<string> {
  return id === 'latest' ? (await client.components.latestDeployment()).deploy_id : id;
}

/** `/deployment list <tool>`. */
export const deploymentListCommand = toolCommand({
  name: 'deployment list',
  permission: 'read',
  async run({ args, client, say = translator(undefined) }) {
    const deployments = await client.components.listDeployments();
    if (deployments.length === 0) {
      return {
        text: say.t('deployment-list-none', args.tool),
        status: 'info',
      };
    }
    const sorted = [...deployments]
      .sort((a, b) => b.creation_time.localeCompare(a.creation_time))
      .slice(0, 15);
    const rows = sorted.map((d) => [
      d.deploy_id,
      d.status,
      tableTime(parseCompactUtc(d.creation_time)),
      d.description,
    ]);
    return {
      title: say.t('deployment-list-title', args.tool),
      // Column heads stay English, as the platform's CLI writes them.
      code: { text: table([['ID', 'STATUS', 'STARTED (UTC)', 'DESCRIPTION'], ...rows]) },
      status: 'info',
      footer:
        deployments.length > sorted.length
          ? say.t('deployment-list-newest', sorted.length, deployments.length)
          : undefined,
    };
  },
});

/** `/deployment show <tool> [id|latest]`. */
export const deploymentShowCommand = command({
  ...deploymentShowSignature,
  positional: ['tool', 'id'],
  examples: ['/deployment show mytool', '/deployment show mytool 20261122-101500-abcdefghij'],
  permission: 'read',
  async run({ args, services, invocation, reply, say }) {
    const client = services.toolhost.forTool(args.tool);
    const deployment =
      args.id === 'latest'
        ? await client.components.latestDeployment()
        : await client.components.showDeployment(args.id);
    const running = deployment.status === 'pending' || deployment.status === 'running';
    const work = running && { kind: 'deployment', id: deployment.deploy_id, language: say?.language };
    return postFollowing(
      { args, services, invocation, reply },
      client,
      deploymentCard(args.tool, deployment, undefined, undefined, say),
      work,
    );
  },
});

/** `/deployment cancel <tool> [id|latest]`. */
export const deploymentCancelCommand = toolCommand({
  ...deploymentCancelSignature,
  positional: ['tool', 'id'],
  examples: ['/deployment cancel mytool', '/deployment cancel mytool 20261122-101500-abcdefghij'],
  permission: 'write',
  guarded: true,
  overridable: true,
  async run({ args, client, say = translator(undefined) }) {
    // `latest` goes through the service's own latest/cancel, which takes the id it must match.
    const deployment =
      args.id === 'latest'
        ? await client.components.cancelLatestDeployment(await resolveDeploymentId(client, 'latest'))
        : await client.components.cancelDeployment(args.id);
    // The deployment's own card follows it to the end; this answer only says the request went in.
    return {
      text: say.t(
        'deployment-cancel-requested',
        deployment.deploy_id,
        args.tool,
        deploymentStateWord(say, deployment.status),
      ),
      status: 'warning',
    };
  },
});

/** `/deployment delete <tool> <id|latest>` (confirmed first). */
export const deploymentDeleteCommand = command({
  name: 'deployment delete',
  args: deploymentIdArgs,
  positional: ['tool', 'id'],
  examples: ['/deployment delete mytool 20261122-101500-abcdefghij'],
  permission: 'write',
  guarded: true,
  overridable: true,
  confirm: (args, _target, say = translator('en')) => say.t('deployment-delete-confirm', args.id, args.tool),
  async resolve({ args, services, invocation }) {
    const client = services.toolhost.forTool(args.tool);
    const deployment = await mustExist(
      () =>
        args.id === 'latest'
          ? client.components.latestDeployment()
          : client.components.showDeployment(args.id),
      (say) => ({
        message:
          args.id === 'latest'
            ? say.t('deployment-delete-none', args.tool)
            : say.t('deployment-not-found', args.id, args.tool),
        hint: say.t('deployment-see-list', args.tool),
      }),
    );
    return {
      label: translators(invocation).say.t('deployment-delete-target', deployment.deploy_id, args.tool),
      args: { ...args, id: deployment.deploy_id },
      version: deployment.creation_time,
    };
  },
  async run({ args, services, say = translator(undefined) }) {
    // `resolve` bound the id before the question: `latest` never reaches here.
    const client = services.toolhost.forTool(args.tool);
    const deployment = await client.components.deleteDeployment(args.id);
    return withWarnings(
      { text: say.t('deployment-deleted', deployment.deploy_id, args.tool), status: 'success' },
      client,
    );
  },
});
