import { afterEach, describe, expect, it } from 'vitest';
import { TelegramAdapter } from '../../adapters/telegram/adapter';
import { Messengers } from '../../src/core/messenger';
import { silentLogger } from '../../src/log';
import { DeliveryDeduper } from '../../src/store/dedupe';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let deckhand: TelegramDeckhand;

useStarted(
  () => startTelegramDeckhand({ callGetMe: true }),
  (started) => {
    deckhand = started;
  },
);
afterEach(() => {
  deckhand.fake.assertClean();
});

/** The card whose text says the deployment finished, waiting for the edits to get there. */
async function deployCardIn(chatId: number) {
  const { fake } = deckhand;
  const card = await waitFor(() => fake.botMessages(chatId).find((m) => m.text.includes('Deploy mytool')));
  await waitFor(() => /Status: successful/.test(card.text), 15_000);
  return card;
}

describe('Telegram commands (long polling)', () => {
  it('/deploy mytool in a private chat: one card, edited in place until it says successful', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    fake.sendText(users.admin, chat, '/deploy mytool');
    const card = await deployCardIn(chat.id);
    expect(fake.botMessages(chat.id).filter((m) => m.text.includes('Deploy mytool'))).toHaveLength(1);
    expect(card.versions.length).toBeGreaterThan(1);
    expect(card.versions[0]?.text).toMatch(/Status: (pending|running)/);
    expect(card.text).toContain('✅ Deploy mytool');
    expect(card.entities).toContainEqual({ type: 'bold', offset: 2, length: 'Deploy mytool'.length });
    const edits = fake.callsTo('editMessageText').filter((c) => c.params.message_id === card.messageId);
    expect(edits.length).toBe(card.versions.length - 1);
    expect(edits.every((c) => c.params.chat_id === chat.id && c.params.parse_mode === 'HTML')).toBe(true);
    const labels = card.replyMarkup?.inline_keyboard.flat().map((b) => b.text);
    expect(labels).toContain('Redeploy');
  });

  it('/deploy@deckhand_bot mytool in a group: the card answers the command and ends successful', async () => {
    const { fake, users } = deckhand;
    const group = fake.group('ops');
    const { message } = fake.sendText(users.maintainer, group, '/deploy@deckhand_bot mytool');
    const card = await deployCardIn(group.id);
    expect(card.replyTo).toBe(message?.messageId);
    expect(card.versions.length).toBeGreaterThan(1);
    for (const button of card.replyMarkup?.inline_keyboard.flat() ?? []) {
      if ('callback_data' in button) expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(64);
    }
  });

  it('ignores commands for other bots and unknown commands not addressed to it in groups', async () => {
    const { fake, users } = deckhand;
    const group = fake.group('shared');
    fake.sendText(users.admin, group, '/deploy@other_bot mytool');
    fake.sendText(users.admin, group, '/weather berlin');
    fake.sendText(users.admin, group, '/jobs list mytool');
    await waitFor(() => fake.botMessages(group.id).find((m) => m.text.includes('Jobs of mytool')));
    expect(fake.botMessages(group.id)).toHaveLength(1);
  });

  it('answers /start with a short welcome and buttons into help, and a long dash before a flag still counts as --', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.stranger);
    fake.sendText(users.stranger, chat, '/start');
    const welcome = await waitFor(() =>
      fake.botMessages(chat.id).find((m) => m.text.includes('Welcome to Deckhand')),
    );
    for (const first of ['/deploy <tool>', '/jobs list <tool>', '/logs <tool> <job>']) {
      expect(welcome.text).toContain(first);
    }
    expect(welcome.text.length).toBeLessThan(600);
    const labels = welcome.replyMarkup?.inline_keyboard.flat().map((b) => b.text);
    expect(labels).toEqual(expect.arrayContaining(['All commands', 'Tool platform', 'Calendar', 'Media']));
    fake.click(users.stranger, welcome, 'All commands');
    await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('Deckhand commands')));
    fake.sendText(users.stranger, chat, '/jobs list mytool —bogus');
    const reply = await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('--bogus')));
    expect(reply.text).toMatch(/Unknown (option|flag)/i);
  });

  it('keeps a usage error private in a group: it goes to the user, not the group', async () => {
    const { fake, users } = deckhand;
    const group = fake.group('ops-2');
    const dm = fake.privateChat(users.admin);
    fake.sendText(users.admin, group, '/deploy');
    const answer = await waitFor(() =>
      fake.botMessages(dm.id).find((m) => m.text.includes('Usage: /deploy')),
    );
    expect(answer.text).toMatch(/tool/);
    expect(fake.botMessages(group.id)).toHaveLength(0);
  });

  it('answers in the forum topic the command came from', async () => {
    const { fake, users } = deckhand;
    const forum = fake.group('forum');
    const { message } = fake.sendText(users.admin, forum, '/jobs list mytool', { threadId: 77 });
    const reply = await waitFor(() => fake.botMessages(forum.id)[0]);
    expect(reply.threadId).toBe(77);
    expect(reply.replyTo).toBe(message?.messageId);
  });
});

describe('Telegram long polling (these tests stop the adapter: keep them last)', () => {
  it('deletes any webhook, then long-polls with offset and timeout for messages and button presses', async () => {
    const { fake } = deckhand;
    expect(fake.callsTo('getMe')).toHaveLength(1);
    expect(fake.callsTo('deleteWebhook')).toHaveLength(1);
    await waitFor(() => fake.callsTo('getUpdates').length > 0);
    const newcomer = fake.user(601, 'Pia');
    const chat = fake.privateChat(newcomer);
    fake.sendText(newcomer, chat, '/jobs quota mytool');
    await waitFor(() => fake.botMessages(chat.id).length === 1);
    const polls = fake.callsTo('getUpdates');
    expect(polls[0]?.params).toMatchObject({ timeout: 30, allowed_updates: ['message', 'callback_query'] });
    const last = await waitFor(() => fake.callsTo('getUpdates').find((c) => Number(c.params.offset) > 0));
    expect(last.params.offset).toBeGreaterThan(10_000);
    expect(await deckhand.adapter.healthy()).toBe(true);
    fake.assertClean();
  });

  it('stops at once, ending the pending long poll', async () => {
    const { fake } = deckhand;
    const started = Date.now();
    await deckhand.adapter.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await deckhand.adapter.healthy()).toBe(false);
    const polls = fake.callsTo('getUpdates').length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.callsTo('getUpdates')).toHaveLength(polls);
  });

  it('reports itself unhealthy when another process takes over polling with the same token (409)', async () => {
    const { app, web, config, fake } = deckhand;
    const context = {
      app: { ...app, messengers: new Messengers() },
      web,
      config,
      logger: silentLogger,
      deduper: new DeliveryDeduper(app.redis.redis, config.REDIS_KEY_PREFIX),
      role: 'all' as const,
    };
    const options = { botInfo: fake.state.bot, pollTimeoutSeconds: 30 };
    const first = new TelegramAdapter(context, options);
    const second = new TelegramAdapter(context, options);
    try {
      await first.start();
      await waitFor(async () => (await first.healthy()) && fake.callsTo('getUpdates').at(-1)?.status === 0);
      await second.start();
      await waitFor(async () => !(await first.healthy()));
      expect(fake.callsTo('getUpdates').some((c) => c.status === 409)).toBe(true);
      expect(await second.healthy()).toBe(true);
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
