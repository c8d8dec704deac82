import { describe, expect, it } from 'vitest';
import { type PlatformDescriptor, sendBudgetOf } from '../../adapters/descriptor';
import { PLATFORMS } from '../../adapters/platforms';
import { spacingMs } from '../../src/core/send-budget';
import { conversationBudget } from '../../src/wiring/platforms';

describe('send and edit budgets in the platform descriptors', () => {
  it('give a Telegram group 20 messages and 20 edits a minute, edits 3 s apart, shared by its topics', () => {
    const group = conversationBudget('telegram:42:-100777:12');
    expect(group.scope).toBe('telegram:42:-100777');
    expect(group.posts).toMatchObject({ count: 20, perMs: 60_000 });
    expect(group.edits).toMatchObject({ count: 20, perMs: 60_000 });
    expect(spacingMs(group.edits)).toBe(3000);
    const privateChat = conversationBudget('telegram:42:501');
    expect(spacingMs(privateChat.edits)).toBe(1000);
  });

  it('give a Slack channel one message a second and a Discord channel 5 per 5 s, threads sharing them', () => {
    const slack = conversationBudget('slack:T1:C1:1712.5');
    expect(slack).toMatchObject({ scope: 'slack:T1:C1', posts: { count: 1, perMs: 1000 } });
    const discord = conversationBudget('discord:9:8');
    expect(discord).toMatchObject({ scope: 'discord:9:8', posts: { count: 5, perMs: 5000 } });
  });

  it('fall back to one message and one edit a second for a descriptor that states none', () => {
    // A platform folder added without budget fields (its descriptor type-checks without them).
    const bare: Pick<PlatformDescriptor, 'sendBudget'> = {};
    expect(PLATFORMS.every((platform) => platform.sendBudget !== undefined)).toBe(true);
    expect(sendBudgetOf(bare, 'x:W:C')).toEqual({
      scope: 'x:W:C',
      posts: { count: 1, perMs: 1000 },
      edits: { count: 1, perMs: 1000 },
    });
    expect(conversationBudget('unknown:W:C').edits.count).toBeGreaterThan(1000);
  });
});
