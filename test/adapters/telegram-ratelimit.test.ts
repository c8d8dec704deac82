import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { waitFor } from '../support/wait';

const MIN_GAP_MS = 150;
let deckhand: TelegramDeckhand;

beforeAll(async () => {
  // The throttler on, at a test-sized pace: one message per 150 ms per private chat.
  deckhand = await startTelegramDeckhand({
    adapter: {
      throttle: { out: { maxConcurrent: 1, minTime: MIN_GAP_MS }, group: { maxConcurrent: 1, minTime: 0 } },
    },
  });
});
afterAll(async () => {
  await deckhand?.close();
});
afterEach(() => {
  deckhand.fake.assertClean();
});

describe('Telegram rate limits', () => {
  it('waits out a 429 (retry_after) and then delivers every reply, in order', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    fake.rateLimit('sendMessage', { times: 2, retryAfter: 1 });
    const commands = ['/jobs list mytool', '/jobs show mytool web', '/envvars list mytool'];
    for (const command of commands) fake.sendText(users.admin, chat, command);
    await waitFor(() => fake.botMessages(chat.id).length === 3, 15_000);
    const texts = fake.botMessages(chat.id).map((m) => m.text);
    expect(texts[0]).toContain('Jobs of mytool');
    expect(texts[1]).toContain('Job web of mytool');
    expect(texts[2]).toMatch(/API_ENDPOINT/);
    const sends = fake.callsTo('sendMessage').filter((c) => c.params.chat_id === chat.id);
    expect(sends.map((c) => c.status)).toEqual([429, 429, 200, 200, 200]);
    expect(sends[0]?.params.text).toBe(sends[2]?.params.text);
    expect((sends[1]?.at ?? 0) - (sends[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect((sends[2]?.at ?? 0) - (sends[1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('keeps editing a progress card through a 429 until it is successful', async () => {
    const { fake, users } = deckhand;
    const group = fake.group('ops');
    fake.rateLimit('editMessageText', { times: 1, retryAfter: 1 });
    fake.sendText(users.admin, group, '/deploy mytool');
    const card = await waitFor(() =>
      fake.botMessages(group.id).find((m) => m.text.includes('Deploy mytool')),
    );
    await waitFor(() => /Status: successful/.test(card.text), 15_000);
    const edits = fake.callsTo('editMessageText').filter((c) => c.params.chat_id === group.id);
    expect(edits[0]?.status).toBe(429);
    expect(edits[1]?.params.text).toBe(edits[0]?.params.text);
    expect((edits[1]?.at ?? 0) - (edits[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(card.versions.length).toBe(edits.filter((e) => e.status === 200).length + 1);
  });

  it('spaces messages to one private chat with the throttler', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.maintainer);
    for (let i = 0; i < 4; i++) fake.sendText(users.maintainer, chat, '/jobs quota mytool');
    await waitFor(() => fake.botMessages(chat.id).length === 4, 10_000);
    const times = fake
      .callsTo('sendMessage')
      .filter((c) => c.params.chat_id === chat.id)
      .map((c) => c.at);
    // The throttler starts sends MIN_GAP_MS apart; arrival times jitter a little on a loaded machine,
    // so each gap gets some slack and the whole span must still reflect the spacing.
    for (let i = 1; i < times.length; i++) {
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(MIN_GAP_MS - 60);
    }
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(3 * MIN_GAP_MS - 60);
  });
});
