import { mustExist } from '../../src/core/target';
import { tableTime } from '../../src/core/times';
import type { ToolhostClient } from '../../src/services/toolhost';
import { parseCompactUtc, table, withWarnings } from '../format';
import { command, toolCommand } from './context';
import { deploymentCard } from './deployment-card';
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
  async run({ args, client }) {
    const deployments = await client.components.listDeployments();
    if (deployments.length === 0) {
      return {
        text: `${args.tool} has no deployments yet. Start one with /deploy ${args.tool}.`,
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
      title: `Deployments of ${args.tool}`,
      code: { text: table([['ID', 'STATUS', 'STARTED (UTC)', 'DESCRIPTION'], ...rows]) },
      status: 'info',
      footer:
        deployments.length > sorted.length ? `newest ${sorted.length} of ${deployments.length}` : undefined,
    };
  },
});

/** `/deployment show <tool> [id|latest]`. */
export const deploymentShowCommand = command({
  ...deploymentShowSignature,
  positional: ['tool', 'id'],
  examples: ['/deployment show mytool', '/deployment show mytool 20261122-101500-abcdefghij'],
  permission: 'read',
  async run({ args, services, invocation, reply }) {
    const client = services.toolhost.forTool(args.tool);
    const deployment =
      args.id === 'latest'
        ? await client.components.latestDeployment()
        : await client.components.showDeployment(args.id);
    const running = deployment.status === 'pending' || deployment.status === 'running';
    const work = running && { kind: 'deployment', id: deployment.deploy_id };
    return postFollowing(
      { args, services, invocation, reply },
      client,
      deploymentCard(args.tool, deployment),
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
  async run({ args, client }) {
    // `latest` goes through the service's own latest/cancel, which takes the id it must match.
    const deployment =
      args.id === 'latest'
        ? await client.components.cancelLatestDeployment(await resolveDeploymentId(client, 'latest'))
        : await client.components.cancelDeployment(args.id);
    // The deployment's own card follows it to the end; this answer only says the request went in.
    return {
      text: `Cancellation requested: deployment ${deployment.deploy_id} of ${args.tool} is ${deployment.status}. Its card says when it has stopped; /deployment show ${args.tool} ${deployment.deploy_id} shows it here.`,
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
  confirm: (args) =>
    `Delete deployment ${args.id} of ${args.tool}? Its record and status are removed for good.`,
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const deployment = await mustExist(
      () =>
        args.id === 'latest'
          ? client.components.latestDeployment()
          : client.components.showDeployment(args.id),
      args.id === 'latest'
        ? `${args.tool} has no deployments, so there is nothing to delete.`
        : `Deployment ${args.id} of ${args.tool} does not exist.`,
      `See /deployment list ${args.tool}.`,
    );
    return {
      label: `Deployment ${deployment.deploy_id} of ${args.tool}`,
      args: { ...args, id: deployment.deploy_id },
      version: deployment.creation_time,
    };
  },
  async run({ args, services }) {
    // `resolve` bound the id before the question: `latest` never reaches here.
    const client = services.toolhost.forTool(args.tool);
    const deployment = await client.components.deleteDeployment(args.id);
    return withWarnings(
      { text: `Deleted deployment ${deployment.deploy_id} of ${args.tool}.`, status: 'success' },
      client,
    );
  },
});
