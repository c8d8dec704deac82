import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telegramConversationId } from '../../adapters/telegram/ids';
import { telegramRules } from '../../bench/lib/platform-limits';
import { type RateLimitProxy, startRateLimitProxy } from '../../bench/lib/rate-limit-proxy';
import { startFakeTelegram } from '../fakes/telegram';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { waitFor } from '../support/wait';

let deckhand: TelegramDeckhand;
let proxy: RateLimitProxy;

beforeAll(async () => {
  const fake = await startFakeTelegram();
  // Telegram's documented group limits, enforced: 20 messages and 20 edits a minute per group; a
  // request past them is answered 429. The adapter's own throttle is the harness's fast one, so only
  // Deckhand's edit budget keeps the edits within the limits.
  proxy = await startRateLimitProxy(fake.apiRoot, telegramRules);
  deckhand = await startTelegramDeckhand({ fake, env: { TELEGRAM_API_ROOT: proxy.url } });
});
afterAll(async () => {
  await deckhand?.close();
  await deckhand?.fake.close();
  await proxy?.close();
});

describe('cards in a Telegram group, edited faster than the group takes', () => {
  it('never draw a 429, and each card ends showing its latest state', async () => {
    const { fake, app } = deckhand;
    const group = fake.group('Deploys');
    const conversation = telegramConversationId(fake.token.split(':')[0] as string, group.id);
    const deploy = await app.publisher.post(conversation, {
      title: 'Deployment of mytool',
      text: 'step 0 of 60',
    });
    const build = await app.publisher.post(conversation, { title: 'Build of mytool', text: 'line 0 of 60' });

    // Two cards, each given 60 new states in a burst (twice what the group takes in a minute, together
    // six times), while the conversation also gets a new message.
    const edits: Promise<void>[] = [];
    for (let i = 1; i <= 60; i++) {
      edits.push(app.publisher.update(deploy, { title: 'Deployment of mytool', text: `step ${i} of 60` }));
      edits.push(app.publisher.update(build, { title: 'Build of mytool', text: `line ${i} of 60` }));
    }
    const note = app.publisher.post(conversation, { title: 'Lock', text: 'mytool is locked by ada' });
    await Promise.all([...edits, note]);

    expect(Object.fromEntries(proxy.refused)).toEqual({});
    const [deployCard, buildCard, lockNote] = fake.botMessages(group.id);
    expect(deployCard?.text).toContain('step 60 of 60');
    expect(buildCard?.text).toContain('line 60 of 60');
    expect(lockNote?.text).toContain('mytool is locked by ada');
    // The states in between were coalesced, not queued: a handful of edits, not 120.
    const editCalls = fake.callsTo('editMessageText').length;
    expect(editCalls).toBeGreaterThanOrEqual(2);
    expect(editCalls).toBeLessThanOrEqual(20);
  });

  it('a live tail in the group says it refreshes every 3 s there and where to follow faster, and ends on its transcript', async () => {
    const { fake, users } = deckhand;
    const group = fake.group('Logs');
    fake.sendText(users.admin, group, '/logs mytool web --follow');
    const card = await waitFor(
      () => fake.botMessages(group.id).find((m) => m.text.includes('Live log')),
      20_000,
    );
    await waitFor(() => card.text.includes('refreshed every 3 s here'), 20_000);
    expect(card.text).toContain('a direct message with Deckhand refreshes faster');
    fake.click(users.admin, card, 'Stop');
    await waitFor(() => card.text.includes('Stopped following'), 30_000);
    expect(Object.fromEntries(proxy.refused)).toEqual({});
  });
});
