import { Bot, GrammyError, InputFile } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeMessage, type FakeTelegram, startFakeTelegram } from '../fakes/telegram';
import { waitFor } from '../support/wait';

/** The fake itself: a request the real Bot API would refuse must not pass silently. */
describe('fake Telegram Bot API', () => {
  let fake: FakeTelegram;
  let bot: Bot;

  beforeEach(async () => {
    fake = await startFakeTelegram({ checkResponses: true });
    bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot, timeoutSeconds: 5 } });
  });
  afterEach(async () => {
    if (bot.isRunning()) await bot.stop();
    await fake.close();
  });

  it('long-polls with offset, timeout and hold, and delivers what a user sends', async () => {
    const alice = fake.user(501, 'Alice', 'alice');
    const chat = fake.privateChat(alice);
    const seen: string[] = [];
    bot.on('message:text', async (ctx) => {
      seen.push(ctx.message.text);
      await ctx.reply(`<b>echo</b> ${ctx.message.text.replaceAll('&', '&amp;')}`, { parse_mode: 'HTML' });
    });
    const polling = bot.start({ timeout: 30, drop_pending_updates: false });
    await waitFor(() => fake.callsTo('getUpdates').length > 0);
    const started = Date.now();
    fake.sendText(alice, chat, 'one & two');
    await waitFor(() => fake.botMessages(chat.id).length === 1);
    // Held, then answered when the update arrived: long before the 30 s poll timeout.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(seen).toEqual(['one & two']);
    const [reply] = fake.botMessages(chat.id);
    expect(reply?.text).toBe('echo one & two');
    expect(reply?.entities).toEqual([{ type: 'bold', offset: 0, length: 4 }]);
    await bot.stop();
    await polling;
    const polls = fake.callsTo('getUpdates');
    expect(polls.length).toBeLessThan(6);
    expect(polls.at(-1)?.params.offset).toBeGreaterThan(10_000);
    fake.assertClean();
  });

  it('refuses unescaped markup, over-long text and oversized callback data, and records violations', async () => {
    const alice = fake.user(502, 'Alice');
    const chat = fake.privateChat(alice);
    fake.sendText(alice, chat, 'hi');
    const attempts = [
      () => bot.api.sendMessage(chat.id, 'a <job> & b', { parse_mode: 'HTML' }),
      () => bot.api.sendMessage(chat.id, 'x'.repeat(4097)),
      () =>
        bot.api.sendMessage(chat.id, 'ok', {
          reply_markup: { inline_keyboard: [[{ text: 'Go', callback_data: 'x'.repeat(65) }]] },
        }),
      () => bot.api.sendMessage(chat.id, 'ok', { parse_mode: 'HTML', bogus_option: 1 } as never),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toBeInstanceOf(GrammyError);
    expect(fake.violations).toHaveLength(4);
    expect(fake.violations.join('\n')).toMatch(/can't parse entities/);
    expect(fake.violations.join('\n')).toMatch(/message is too long/);
    expect(fake.violations.join('\n')).toMatch(/BUTTON_DATA_INVALID/);
    expect(fake.violations.join('\n')).toMatch(/unknown parameter "bogus_option"/);
    expect(() => fake.assertClean()).toThrow(/violations/);
    fake.violations.length = 0;
  });

  it('answers "message is not modified", 403 for users who never started the bot, and 429 with retry_after', async () => {
    const alice = fake.user(503, 'Alice');
    const chat = fake.privateChat(alice);
    await expect(bot.api.sendMessage(chat.id, 'hello')).rejects.toThrow(/can't initiate conversation/);
    fake.sendText(alice, chat, '/start');
    const sent = await bot.api.sendMessage(chat.id, 'hello');
    await expect(bot.api.editMessageText(chat.id, sent.message_id, 'hello')).rejects.toThrow(/not modified/);
    fake.rateLimit('sendMessage', { retryAfter: 3 });
    const error = await bot.api.sendMessage(chat.id, 'again').catch((e: GrammyError) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(429);
    expect((error as GrammyError).parameters.retry_after).toBe(3);
    fake.assertClean();
  });

  it('takes multipart documents and serves files for download', async () => {
    const alice = fake.user(504, 'Alice');
    const chat = fake.privateChat(alice);
    fake.sendText(alice, chat, '/start');
    await bot.api.sendDocument(chat.id, new InputFile(Buffer.from('log line\n'), 'build.log'), {
      caption: '<b>Build</b> log',
      parse_mode: 'HTML',
    });
    const [doc] = fake.botMessages(chat.id);
    expect(doc?.document?.fileName).toBe('build.log');
    expect(doc?.document?.content?.toString()).toBe('log line\n');
    expect(doc?.text).toBe('Build log');
    const file = await bot.api.getFile(doc?.document?.fileId as string);
    const response = await fetch(`${fake.apiRoot}/file/bot${fake.token}/${file.file_path}`);
    expect(await response.text()).toBe('log line\n');
    fake.assertClean();
  });

  it('delivers files, videos, audio and button presses as updates that match the spec', async () => {
    const alice = fake.user(505, 'Alice', 'alice');
    const group = fake.group('media');
    const seen: string[] = [];
    bot.on('message', (ctx) => {
      const kind = ctx.message.document
        ? 'document'
        : ctx.message.video
          ? 'video'
          : ctx.message.audio
            ? 'audio'
            : 'text';
      seen.push(`${kind}:${ctx.message.caption ?? ctx.message.text ?? ''}`);
    });
    bot.on('callback_query:data', async (ctx) => {
      seen.push(`press:${ctx.callbackQuery.data}`);
      await ctx.answerCallbackQuery();
    });
    const polling = bot.start({ timeout: 30 });
    const sent = await bot.api.sendMessage(group.id, 'pick', {
      reply_markup: { inline_keyboard: [[{ text: 'Go', callback_data: 'go-1' }]] },
    });
    fake.sendFile(alice, group, { name: 'a.txt', content: 'a', mimeType: 'text/plain' }, '/cmd@deckhand_bot');
    fake.sendFile(alice, group, { name: 'v.mp4', content: 'v', mimeType: 'video/mp4', kind: 'video' });
    fake.sendFile(alice, group, { name: 'm.mp3', content: 'm', mimeType: 'audio/mpeg', kind: 'audio' });
    const message = fake.botMessages(group.id).find((m) => m.messageId === sent.message_id);
    fake.click(alice, message as FakeMessage, 'Go');
    await waitFor(() => seen.length === 4);
    await bot.stop();
    await polling;
    expect(seen).toEqual(['document:/cmd@deckhand_bot', 'video:', 'audio:', 'press:go-1']);
    fake.assertClean();
  });

  it('reports the webhook in getWebhookInfo (URL, pending updates, last error) and refuses getUpdates while it is set', async () => {
    // Long polling: no URL, and updates waiting for the bot are counted.
    fake.push({ update_id: 800_001 }, { update_id: 800_002 });
    const polling = await bot.api.getWebhookInfo();
    expect(polling).toEqual({ url: '', has_custom_certificate: false, pending_update_count: 2 });
    await bot.api.setWebhook('https://deckhand.example/telegram/webhook', { secret_token: 'abc_DEF-1' });
    fake.webhookDeliveryFailed('Wrong response from the webhook: 502 Bad Gateway', 1_700_000_000);
    const info = await bot.api.getWebhookInfo();
    expect(info).toMatchObject({
      url: 'https://deckhand.example/telegram/webhook',
      pending_update_count: 2,
      last_error_date: 1_700_000_000,
      last_error_message: 'Wrong response from the webhook: 502 Bad Gateway',
    });
    // "You will not be able to receive updates using getUpdates for as long as an outgoing webhook is set up."
    await expect(bot.api.getUpdates()).rejects.toMatchObject({ error_code: 409 });
    // drop_pending_updates empties the queue; deleteWebhook clears the URL and the error.
    await bot.api.deleteWebhook({ drop_pending_updates: true });
    expect(await bot.api.getWebhookInfo()).toEqual({
      url: '',
      has_custom_certificate: false,
      pending_update_count: 0,
    });
    fake.assertClean();
  });
});
