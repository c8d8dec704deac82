/**
 * Rollback on every platform, through each real adapter and its fake (IRC's real network): after
 * commits A then B (B fails to build), the failed deployment's card shows what changed between A
 * and B and a Roll back button; pressing it asks with the plan, Confirm pins A's commit and deploys
 * it, an Unpin press restores the branch; each action is one change record in the audit trail.
 */
import { expect, it } from 'vitest';
import { deploymentCard } from '../../../commands/toolhost/deployment-card';
import { whatChangedField } from '../../../commands/toolhost/rollback-changes';
import type { SourcehostSandbox } from '../../../packages/sandbox/src/sourcehost/index';
import type { MessageHandle } from '../../../src/core/command';
import type { Deployment } from '../../../src/services/toolhost';
import { waitFor } from '../../support/wait';
import { describeEachPlatform, messageId, readable } from './each-platform';

const REPO = 'toolforge-repos/mytool';

describeEachPlatform('rollback', (driver) => {
  it('Roll back on a failed card pins the commit of the last good deployment; Unpin restores the branch', async () => {
    const d = driver();
    const source = d.app.emulators.sourcehost as unknown as SourcehostSandbox;
    const platform = d.app.services.toolhost.forTool('mytool');
    const webRef = async () =>
      ((await platform.components.getConfig()).components.web?.build as { ref?: string } | undefined)?.ref;
    const deployUntilDone = async (): Promise<Deployment> => {
      const { deploy_id } = await platform.components.createDeployment({
        forceBuild: false,
        forceRun: false,
      });
      return waitFor(async () => {
        const found = await platform.components.showDeployment(deploy_id);
        return found.status === 'successful' || found.status === 'failed' ? found : undefined;
      }, 30_000);
    };
    await platform.components.setConfig({
      config_version: 'v1beta1',
      components: {
        web: {
          component_type: 'continuous',
          build: { repository: `${source.webUrl}/${REPO}`, ref: 'main' },
          run: { command: 'web', port: 8000 },
        },
      },
    });
    const commitA = source.controls.pushCommit(REPO, 'main', { message: 'Good change', authorName: 'Mona' });
    expect((await deployUntilDone()).status).toBe('successful');
    source.controls.pushCommit(REPO, 'main', {
      message: 'Broken change',
      authorName: 'Hubot',
      failsBuild: true,
    });
    const failed = await deployUntilDone();
    expect(failed.status).toBe('failed');
    const since = Date.now();

    const changes = await whatChangedField(d.app.services, platform, 'mytool', failed);
    const card = (await d.app.publisher.post(
      d.conversationId,
      deploymentCard('mytool', failed, undefined, changes),
    )) as MessageHandle;
    await waitFor(async () =>
      (await d.shown()).some((m) => m.text.includes('Broken change')) ? true : undefined,
    );
    expect(d.seen()).toContain('Broken change — Hubot');

    await d.press(messageId(card), 'Roll back', 'admin');
    const prompt = await waitFor(async () =>
      [...(await d.shown()), ...((await d.privateShown?.()) ?? [])].find((m) =>
        readable(m).includes('Roll back mytool to deployment'),
      ),
    );
    expect(readable(prompt)).toMatch(new RegExp(`web +[0-9a-f]{12} +${commitA.slice(0, 12)} +main`));
    expect(await webRef()).toBe('main');
    await d.press(prompt.id, 'Confirm', 'admin');
    await waitFor(async () => ((await webRef()) === commitA ? true : undefined));
    await d.idle();

    const unpin = (await d.app.publisher.post(d.conversationId, {
      text: 'Return to the branch',
      actions: [{ label: 'Unpin', command: 'deployment unpin', args: { tool: 'mytool' } }],
    })) as MessageHandle;
    await d.press(messageId(unpin), 'Unpin', 'admin');
    await waitFor(async () => ((await webRef()) === 'main' ? true : undefined));
    await d.idle();

    const records = await waitFor(async () => {
      const found = (await d.app.services.accounts.audit.recent({ tool: 'mytool', limit: 20 }))
        .filter((e) => e.at >= since)
        .map((e) => [e.platform, e.command, e.outcome])
        .reverse();
      return found.some(([, command]) => command === 'deployment unpin') ? found : undefined;
    });
    expect(records.filter(([, command]) => command === 'deployment rollback')).toHaveLength(1);
    expect(records.filter(([, command]) => command === 'deployment unpin')).toEqual([
      [d.platform, 'deployment unpin', 'ok'],
    ]);
    expect(d.violations()).toEqual([]);
  });
});
