import type { Update } from 'grammy/types';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ackDuration, chatApiCalls, chatApiErrors, chatApiRateLimited } from '../../src/metrics';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { counterValue, histogramCount } from '../support/metric-values';
import { waitFor } from '../support/wait';

const SECRET = 'webhook_Secret-456';
let deckhand: TelegramDeckhand;

beforeAll(async () => {
  deckhand = await startTelegramDeckhand({
    env: { TELEGRAM_WEBHOOK_SECRET: SECRET, PUBLIC_URL: 'https://deckhand.example.org/' },
  });
});
afterAll(async () => {
  await deckhand?.close();
});
afterEach(() => {
  deckhand.fake.assertClean();
});

async function deliver(update: Update): Promise<number> {
  const response = await fetch(`${deckhand.webUrl}/telegram/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
    body: JSON.stringify(update),
  });
  await response.text();
  return response.status;
}

const telegram = (method: string) => ({ platform: 'telegram', method });

describe('Telegram API metrics from a grammY transformer', () => {
  it('counts every attempt of a method, a 429 as rate-limited, and times the webhook ack', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    const before = {
      sends: await counterValue(chatApiCalls, telegram('sendMessage')),
      limited: await counterValue(chatApiRateLimited, telegram('sendMessage')),
      acks: await histogramCount(ackDuration, { platform: 'telegram' }),
      sentBefore: fake.callsTo('sendMessage').length,
    };
    fake.rateLimit('sendMessage', { times: 1, retryAfter: 1 });
    const { update } = fake.sendText(users.admin, chat, '/jobs list mytool', { deliver: false });
    expect(await deliver(update)).toBe(200);
    await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('Jobs of mytool')), 15_000);
    const sent = fake.callsTo('sendMessage').length - before.sentBefore;
    expect(sent).toBe(2);
    await waitFor(
      async () =>
        (await counterValue(chatApiCalls, telegram('sendMessage'))) === before.sends + sent || undefined,
    );
    expect(await counterValue(chatApiRateLimited, telegram('sendMessage'))).toBe(before.limited + 1);
    expect(await histogramCount(ackDuration, { platform: 'telegram' })).toBe(before.acks + 1);
  });

  it('counts an error answer (not a 429) as an error of its method', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.maintainer);
    const before = {
      errors: await counterValue(chatApiErrors, telegram('sendMessage')),
      limited: await counterValue(chatApiRateLimited, telegram('sendMessage')),
    };
    fake.fault('sendMessage', { times: 1, code: 400, description: 'Bad Request: chat not found' });
    const { update } = fake.sendText(users.maintainer, chat, '/help', { deliver: false });
    expect(await deliver(update)).toBe(200);
    await waitFor(
      async () => (await counterValue(chatApiErrors, telegram('sendMessage'))) > before.errors || undefined,
      15_000,
    );
    expect(await counterValue(chatApiErrors, telegram('sendMessage'))).toBe(before.errors + 1);
    expect(await counterValue(chatApiRateLimited, telegram('sendMessage'))).toBe(before.limited);
  });
});
