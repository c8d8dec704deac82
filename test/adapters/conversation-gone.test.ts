/**
 * Each platform's "the bot can no longer post here" errors become the core's ConversationGoneError in
 * the messenger (so the deliver path marks the subscription broken and stops), and nothing else does.
 * Slack codes: specs/platforms/slack-web-openapi.json, `/api/chat.postMessage` errors. Telegram
 * descriptions: the Bot API's answers as collected in github.com/TelegramBotAPI/errors.
 */
import { describe, expect, it } from 'vitest';
import { telegramConversationId } from '../../adapters/telegram/ids';
import { conversationId } from '../../src/core/conversation';
import { ConversationGoneError } from '../../src/core/errors';
import { type SlackBot, startSlackBot } from '../fakes/slack/harness';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { useStarted } from '../support/started';

describe('Slack messenger', () => {
  let bot: SlackBot;
  let id: string;
  useStarted(startSlackBot, (started) => {
    bot = started;
    id = conversationId({ platform: 'slack', workspace: bot.fake.options.teamId, channel: 'CGONE' });
  });

  it.each(['channel_not_found', 'not_in_channel', 'is_archived', 'account_inactive'])(
    '%s means the conversation is gone',
    async (code) => {
      bot.fake.script('chat.postMessage', { error: code });
      const failure = await bot.app.messengers
        .for('slack')
        .post(id, { text: 'hello' })
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ConversationGoneError);
      expect((failure as Error).message).toContain(code);
    },
  );

  it('any other refusal stays what it was, and a post that works is posted', async () => {
    bot.fake.script('chat.postMessage', { error: 'msg_too_long' });
    const failure = await bot.app.messengers
      .for('slack')
      .post(id, { text: 'hello' })
      .catch((e: unknown) => e);
    expect(failure).not.toBeInstanceOf(ConversationGoneError);
    expect(String(failure)).toContain('msg_too_long');
    await bot.app.messengers.for('slack').post(id, { text: 'hello again' });
    expect(bot.fake.channelMessages('CGONE')).toHaveLength(1);
  });
});

describe('Telegram messenger', () => {
  let t: TelegramDeckhand;
  let id: string;
  useStarted(startTelegramDeckhand, (started) => {
    t = started;
    id = telegramConversationId(String(t.fake.state.bot.id), t.fake.group('Gone').id);
  });

  it.each([
    [403, 'Forbidden: bot was kicked from the group chat'],
    [403, 'Forbidden: bot was kicked from the supergroup chat'],
    [403, 'Forbidden: bot was blocked by the user'],
    [403, 'Forbidden: bot is not a member of the channel chat'],
    [400, 'Bad Request: chat not found'],
  ])('%i %s means the conversation is gone', async (code, description) => {
    t.fake.fault('sendMessage', { times: 1, code, description });
    const failure = await t.app.messengers
      .for('telegram')
      .post(id, { text: 'hello' })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConversationGoneError);
    expect((failure as Error).message).toContain(description);
  });

  it('a chat that moved (upgraded to a supergroup) is not gone, and a post that works is posted', async () => {
    t.fake.fault('sendMessage', {
      times: 1,
      code: 400,
      description: 'Bad Request: group chat was upgraded to a supergroup chat',
    });
    const failure = await t.app.messengers
      .for('telegram')
      .post(id, { text: 'hello' })
      .catch((e: unknown) => e);
    expect(failure).not.toBeInstanceOf(ConversationGoneError);
    const handle = await t.app.messengers.for('telegram').post(id, { text: 'hello again' });
    expect(handle.ref.message).toBeDefined();
  });
});
