/**
 * The change guard on every platform, through each real adapter and its fake (IRC's real network):
 * a Redeploy pressed while the tool is locked is refused with the holder's name and deploys
 * nothing; once the lock is gone the same button deploys; each press is one change record in the
 * audit trail.
 */
import { expect, it } from 'vitest';
import type { MessageHandle } from '../../../src/core/command';
import { waitFor } from '../../support/wait';
import { describeEachPlatform, messageId } from './each-platform';

describeEachPlatform('a tool lock', (driver) => {
  it('refuses a Redeploy pressed during the lock, naming the holder; after unlock it deploys', async () => {
    const d = driver();
    const guards = d.app.services.accounts.guards;
    const deployments = () => d.app.services.toolhost.forTool('mytool').components.listDeployments();
    const since = Date.now();
    const holder = `Holder-${d.platform}`;
    await guards.lock(
      {
        tool: 'mytool',
        holder: `${d.platform}:w:someone`,
        name: holder,
        conversationId: d.conversationId,
        reason: 'contract',
        since,
        until: since + 3_600_000,
      },
      { take: false },
    );
    const redeployCard = async () => {
      const handle = (await d.app.publisher.post(d.conversationId, {
        text: 'Deployment of mytool failed',
        actions: [{ label: 'Redeploy', command: 'deploy', args: { tool: 'mytool' } }],
      })) as MessageHandle;
      return messageId(handle);
    };
    const id = await redeployCard();
    const before = (await deployments()).length;

    await d.press(id, 'Redeploy', 'admin');
    await waitFor(() => (d.seen().includes(`mytool is locked by ${holder}`) ? true : undefined));
    await d.idle();
    expect((await deployments()).length).toBe(before);

    expect(await guards.unlock('mytool')).toMatchObject({ name: holder });
    await d.press(await redeployCard(), 'Redeploy', 'admin');
    await waitFor(async () => ((await deployments()).length === before + 1 ? true : undefined));
    await d.idle();

    // The record is written once the outcome is known, just after the answer is shown.
    const records = await waitFor(async () => {
      const found = (await d.app.services.accounts.audit.recent({ tool: 'mytool', limit: 20 }))
        .filter((e) => e.at >= since && e.command === 'deploy')
        .map((e) => [e.platform, e.user.endsWith(`:${d.userId('admin')}`), e.outcome])
        .reverse();
      return found.length >= 2 ? found : undefined;
    });
    expect(records).toEqual([
      [d.platform, true, 'locked'],
      [d.platform, true, 'ok'],
    ]);
  });
});
