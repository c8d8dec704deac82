/**
 * `/me` on every platform, through each real adapter and its fake: a person whose deploy token of
 * mytool is linked sees mytool with its status chip and the approval someone else asked for on it,
 * answered privately (never as a message in the conversation, where the platform has private answers).
 */
import { expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatUser } from '../../../src/core/command';
import { testCommand } from '../../support/test-commands';
import { waitFor } from '../../support/wait';
import { deployApproval, describeEachPlatform, postCard } from './each-platform';

/** Who pressed a `contract-who` button, by tag: the chat user the core saw. */
const pressedBy = new Map<string, ChatUser>();

/** A test-only command that records the chat user who ran it (their workspace is the platform's). */
const whoCommand = testCommand({
  name: 'contract-who',
  summary: 'Records who pressed (contract tests only)',
  args: z.object({ tag: z.string() }),
  examples: ['/contract-who tag'],
  run: async ({ args, invocation }) => {
    pressedBy.set(args.tag, invocation.user);
    return { text: `Noted (${args.tag}).`, visibility: 'private' };
  },
});

describeEachPlatform('/me', (driver) => {
  it('shows the tools of the person and the approvals waiting for them, privately', async () => {
    const d = driver();
    if (!d.app.runner.registry.get('contract-who')) d.app.runner.registry.add(whoCommand as never);
    const tag = `home-${d.platform}`;
    await d.press(
      await postCard(d, {
        text: 'Who are you?',
        actions: [{ label: 'Who', command: 'contract-who', args: { tag } }],
      }),
      'Who',
      'admin',
    );
    const admin = await waitFor(() => pressedBy.get(tag));
    await d.idle();
    await d.app.services.accounts.credentials.save(
      admin,
      'tool',
      { token: `home-contract-${d.platform}-token` },
      'mytool',
    );
    const record = deployApproval(d, `home${d.platform}`, Date.now() + 600_000);
    await d.app.services.accounts.approvals.open(record);

    await d.press(
      await postCard(d, { text: 'Open your home', actions: [{ label: 'Home', command: 'me', args: {} }] }),
      'Home',
      'admin',
    );
    await waitFor(() => (d.seen().includes(`asked by Requester-${d.platform}`) ? true : undefined));
    await d.idle();
    const seen = d.seen();
    expect(seen).toContain('Your tools');
    expect(seen).toMatch(/mytool: \\*\[(ok|deploying|warning|failing)\\*\]/);
    expect(seen).toContain('Approvals waiting for you');
    expect(seen).not.toContain(`home-contract-${d.platform}-token`);
    // A private answer: not a message of the conversation (the terminal's conversation is private).
    if (d.platform !== 'shell') {
      const shown = (await d.shown()).map((m) => m.text).join('\n');
      expect(shown).toContain('Open your home');
      expect(shown).not.toContain(`asked by Requester-${d.platform}`);
    }
    expect(d.violations()).toEqual([]);
  });
});
