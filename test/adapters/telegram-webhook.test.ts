import { jobsRuntimeOf } from '@deckhand/sandbox/toolhost/jobs-engine';
import type { Update } from 'grammy/types';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { slowCommand } from '../support/test-commands';
import { waitFor } from '../support/wait';

const SECRET = 'webhook_Secret-123';

let deckhand: TelegramDeckhand;

beforeAll(async () => {
  deckhand = await startTelegramDeckhand({
    env: { TELEGRAM_WEBHOOK_SECRET: SECRET, PUBLIC_URL: 'https://deckhand.example.org/' },
    callGetMe: true,
    commands: [slowCommand] as never,
  });
});
afterAll(async () => {
  await deckhand?.close();
});
afterEach(() => {
  deckhand.fake.assertClean();
});

/** Delivers an update to Deckhand's webhook as Telegram would, with the given secret header. */
async function deliver(update: Update, secret: string | undefined) {
  const response = await fetch(`${deckhand.webUrl}/telegram/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret !== undefined ? { 'x-telegram-bot-api-secret-token': secret } : {}),
    },
    body: JSON.stringify(update),
  });
  return { status: response.status, body: await response.text() };
}

function restarts(): number {
  return jobsRuntimeOf(deckhand.app.emulators.toolhost?.ctx as never).get('mytool', 'web')?.restarts ?? -1;
}

describe('Telegram webhook mode', () => {
  it('calls getMe, sets the webhook with the secret token on start, and never polls', () => {
    const { fake } = deckhand;
    expect(fake.callsTo('getMe')).toHaveLength(1);
    expect(fake.state.webhook).toEqual({
      url: 'https://deckhand.example.org/telegram/webhook',
      secretToken: SECRET,
      allowedUpdates: ['message', 'callback_query'],
    });
    expect(fake.callsTo('getUpdates')).toHaveLength(0);
    expect(deckhand.adapter.mode).toBe('webhook');
  });

  it('answers 401 to a wrong or missing secret token and changes nothing', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    const { update } = fake.sendText(users.admin, chat, '/jobs restart mytool web', { deliver: false });
    const before = restarts();
    const calls = fake.calls.length;
    for (const secret of ['wrong-secret', `${SECRET}x`, '', undefined]) {
      const answer = await deliver(update, secret);
      expect(answer.status).toBe(401);
    }
    // A 401 is decided before anything is queued; the genuine delivery below is the positive control.
    expect(restarts()).toBe(before);
    expect(fake.calls.slice(calls)).toEqual([]);
    expect(fake.botMessages(chat.id)).toEqual([]);

    // The refused deliveries left no trace: the genuine one still runs, once.
    const genuine = await deliver(update, SECRET);
    expect(genuine.status).toBe(200);
    await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('restarted')));
    expect(restarts()).toBe(before + 1);
    const again = await deliver(update, SECRET);
    expect(again.status).toBe(200);
    // Positive control instead of a pause: a later genuine update of the same chat is answered, so
    // the duplicate, had it been accepted, would have run by now.
    const replies = fake.botMessages(chat.id).length;
    const { update: later } = fake.sendText(users.admin, chat, '/help', { deliver: false });
    expect((await deliver(later, SECRET)).status).toBe(200);
    await waitFor(() => fake.botMessages(chat.id).length > replies);
    expect(restarts()).toBe(before + 1);
    expect(fake.botMessages(chat.id).filter((m) => m.text.includes('restarted'))).toHaveLength(1);
  });

  it('acknowledges before the work is done', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.stranger);
    const { update } = fake.sendText(users.stranger, chat, '/slow', { deliver: false });
    const answer = await deliver(update, SECRET);
    expect(answer.status).toBe(200);
    expect(fake.botMessages(chat.id)).toEqual([]);
    await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('Slow work done.')));
  });

  it('edits the /deploy card in place to successful', async () => {
    const { fake, users } = deckhand;
    const group = fake.group('ops');
    const { update } = fake.sendText(users.maintainer, group, '/deploy@deckhand_bot mytool', {
      deliver: false,
    });
    const answer = await deliver(update, SECRET);
    expect(answer.status).toBe(200);
    const card = await waitFor(() =>
      fake.botMessages(group.id).find((m) => m.text.includes('Deploy mytool')),
    );
    await waitFor(() => /Status: successful/.test(card.text), 15_000);
    expect(card.versions.length).toBeGreaterThan(1);
    expect(fake.botMessages(group.id)).toHaveLength(1);
  });

  it('refuses a body that is not an update', async () => {
    const response = await fetch(`${deckhand.webUrl}/telegram/webhook`, {
      method: 'POST',
      headers: { 'x-telegram-bot-api-secret-token': SECRET, 'content-type': 'application/json' },
      body: '{"hello":',
    });
    expect(response.status).toBe(400);
  });
});
