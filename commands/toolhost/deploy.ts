import { z } from 'zod';
import { UpstreamError } from '../../src/core/errors';
import { toolName } from '../args';
import { withWarnings } from '../format';
import { command } from './context';
import { deploymentCard } from './deployment-card';

/**
 * `/deploy <tool>`: starts a deployment of the tool's components, posts one status card and keeps it
 * up to date until the deployment ends. A deployment already running is shown instead of a second one.
 */
export const deployCommand = command({
  name: 'deploy',
  summary: "Deploy a tool's components (build what changed, then run)",
  args: z.object({
    tool: toolName,
    forceBuild: z.boolean().default(false).describe('rebuild even when the source did not change'),
    forceRun: z.boolean().default(false).describe('restart components whose run settings did not change'),
    description: z.string().max(500).optional().describe('what is deployed and why'),
  }),
  positional: ['tool'],
  examples: ['/deploy mytool', '/deploy mytool --force-build --description "fix login"'],
  permission: 'write',
  sideEffect: true,
  async run({ args, services, reply, invocation }) {
    // A deploy token the user linked (/link tool) is used when the tool has no client certificate.
    const deployToken = await services.accounts.credentials.deployToken(invocation.user, args.tool);
    const client = services.toolhost.forTool(args.tool, { deployToken });
    let deployment: Awaited<ReturnType<typeof client.components.createDeployment>>;
    try {
      deployment = await client.components.createDeployment({
        forceBuild: args.forceBuild,
        forceRun: args.forceRun,
        ...(args.description ? { description: args.description } : {}),
      });
    } catch (error) {
      if (!(error instanceof UpstreamError) || error.status !== 409 || !client.hasCertificate) throw error;
      const running = await client.components.latestDeployment();
      const note = 'A deployment is already running, so no new one was started. It is shown here.';
      const handle = await reply(withWarnings(deploymentCard(args.tool, running, note), client));
      if (handle)
        await services.watches.start({ kind: 'deployment', tool: args.tool, id: running.deploy_id, handle });
      return undefined;
    }
    const handle = await reply(withWarnings(deploymentCard(args.tool, deployment), client));
    if (handle)
      await services.watches.start({ kind: 'deployment', tool: args.tool, id: deployment.deploy_id, handle });
    return undefined;
  },
});
