/**
 * Approvals on every platform, through each real adapter and its fake (IRC's real network): an
 * approval card is refused to a stranger's Approve; a maintainer's Approve is taken once and shown
 * on the card, the requester's rights are checked again before anything runs (a requester without
 * them runs nothing), and the outcome is one change record in the audit trail.
 */
import { expect, it } from 'vitest';
import { approvalCard } from '../../../src/core/approval-card';
import type { MessageHandle } from '../../../src/core/command';
import { waitFor } from '../../support/wait';
import { deployApproval, describeEachPlatform, messageId } from './each-platform';

describeEachPlatform('an approval by a second maintainer', (driver) => {
  it("refuses a stranger's Approve; a maintainer's is taken once, re-checks the requester, and is audited once", async () => {
    const d = driver();
    const deployments = () => d.app.services.toolhost.forTool('mytool').components.listDeployments();
    const since = Date.now();
    const record = deployApproval(d, `contract${d.platform}`, since + 600_000);
    const approvals = d.app.services.accounts.approvals;
    await approvals.open(record);
    const handle = (await d.app.publisher.post(d.conversationId, approvalCard(record))) as MessageHandle;
    await approvals.open({ ...record, handle });
    const id = messageId(handle);
    const before = (await deployments()).length;

    // The terminal has one user (its `stranger` presses as that user): the refusal is for the others.
    if (d.userId('stranger') !== d.userId('admin')) {
      await d.press(id, 'Approve', 'stranger');
      await waitFor(() =>
        d.seen().includes('Only maintainers of mytool can approve or deny this') ? true : undefined,
      );
      await d.idle();
      expect((await deployments()).length).toBe(before);
    }

    await d.press(id, 'Approve', 'admin');
    await waitFor(() => (/Approved, but [/!]/.test(d.seen()) ? true : undefined));
    await d.idle();
    // The requester's own rights are checked again at the approval: here they have none, so the
    // approval is taken (once) and nothing runs; the card says why.
    expect((await deployments()).length).toBe(before);
    expect(await approvals.load(record.id)).toMatchObject({
      state: 'approved',
      decisions: [{ kind: 'approved' }],
    });
    expect(d.seen()).toContain('Approved by');
    expect(d.seen()).toContain('did not complete: Only maintainers of mytool can do that.');

    const records = await waitFor(async () => {
      const found = (await d.app.services.accounts.audit.recent({ tool: 'mytool', limit: 20 })).filter(
        (e) => e.at >= since && e.command === 'deploy',
      );
      return found.length >= 1 ? found : undefined;
    });
    expect(records.map((e) => [e.name, e.outcome, e.args.approvedBy !== undefined])).toEqual([
      [`Requester-${d.platform}`, 'permission', true],
    ]);
  });
});
