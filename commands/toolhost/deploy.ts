import type { Invocation } from '../../src/core/command';
import { UpstreamError, UsageError } from '../../src/core/errors';
import { translator } from '../../src/i18n/translate';
import { command } from './context';
import { deploymentCard } from './deployment-card';
import { postFollowing } from './follow';
import { deliveryTag, taggedDescription } from './recognise';
import { deploySignature } from './signatures';
import { readStarted, type StartedIds, startOnce } from './start-once';

/** What a deploy read ahead (see `readAhead`), by invocation, until its run takes it. */
const readsAhead = new WeakMap<
  Invocation,
  { token: Promise<string | undefined>; started: Promise<StartedIds> }
>();

/** What to do when the tool has no components configuration to deploy. */
function noConfiguration(tool: string): UsageError {
  return UsageError.inWords((say) => ({
    message: say.t('deploy-no-configuration', tool),
    hint: say.t('deploy-no-configuration-hint', tool),
  }));
}

/**
 * `/deploy <tool>`: starts a deployment of the tool's components, posts one status card and keeps it
 * up to date until the deployment ends. A deployment already running is shown instead of a second one,
 * whichever process runs the command (see `start-once.ts`).
 */
export const deployCommand = command({
  ...deploySignature,
  examples: ['/deploy mytool', '/deploy mytool --force-build --description "fix login"'],
  permission: 'write',
  deploys: true,
  guarded: true,
  overridable: true,
  effect: {
    check: (args) => `/deployment list ${args.tool}`,
    // The deployment an interrupted attempt started carries the request's tag in its description;
    // only the client certificate may list deployments (a deploy token cannot look).
    async recover({ args, services, invocation }) {
      const deployToken = await services.accounts.credentials.deployToken(invocation.user, args.tool);
      return services.toolhost.forTool(args.tool, { deployToken }).hasCertificate ? 'run' : undefined;
    },
  },
  readAhead({ args, services, invocation }) {
    const token = services.accounts.credentials.deployToken(invocation.user, args.tool);
    const started = readStarted(services.locks, `deploy:${args.tool}`, invocation);
    // Refusals are answered where run awaits them; one never awaited must not end the process.
    token.catch(() => undefined);
    started.catch(() => undefined);
    readsAhead.set(invocation, { token, started });
  },
  async run({ args, services, reply, invocation, interrupted, say = translator(undefined) }) {
    const alreadyRunning = say.t('deploy-already-running');
    const ahead = readsAhead.get(invocation);
    readsAhead.delete(invocation);
    // A deploy token the user linked (/link tool) is used when the tool has no client certificate.
    // Read while startOnce reads what is already running (one Redis round trip for both), or read ahead.
    const clientReady = (
      ahead?.token ?? services.accounts.credentials.deployToken(invocation.user, args.tool)
    ).then((deployToken) => services.toolhost.forTool(args.tool, { deployToken }));
    // Its refusal (an unknown tool) is answered where startOnce awaits it; a path that never does
    // must not leave it unhandled, which would end the process.
    clientReady.catch(() => undefined);
    const tag = deliveryTag(invocation);
    const description = taggedDescription(args.description, tag);
    const input = {
      forceBuild: args.forceBuild,
      forceRun: args.forceRun,
      ...(description ? { description } : {}),
    };
    // One deployment per tool at a time across processes; the platform's 409 still catches one
    // started outside Deckhand (then the latest deployment is shown).
    const { value: deployment, note } = await startOnce({
      resource: `deploy:${args.tool}`,
      invocation,
      locks: services.locks,
      show: async (id) => (await clientReady).components.showDeployment(id),
      isRunning: (d) => d.status === 'pending' || d.status === 'running',
      alreadyRunning,
      busy: say.t('deploy-busy', args.tool),
      interrupted,
      readAhead: ahead?.started,
      async findOwn() {
        const all = tag ? await (await clientReady).components.listDeployments() : [];
        const own = all.find((d) => d.description.includes(`(${tag})`));
        return own ? { value: own, id: own.deploy_id } : undefined;
      },
      async start() {
        const client = await clientReady;
        try {
          const created = await client.components.createDeployment(input);
          return { value: created, id: created.deploy_id };
        } catch (error) {
          // The deployment route's one 404 is a tool without a components configuration.
          if (error instanceof UpstreamError && error.status === 404) throw noConfiguration(args.tool);
          if (!(error instanceof UpstreamError) || error.status !== 409 || !client.hasCertificate)
            throw error;
          return { value: await client.components.latestDeployment(), note: alreadyRunning };
        }
      },
    });
    const card = deploymentCard(args.tool, deployment, note, undefined, say);
    const work = { kind: 'deployment', id: deployment.deploy_id, started: true, language: say.language };
    return postFollowing({ args, services, invocation, reply }, await clientReady, card, work);
  },
});
