import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AppServices } from '../../commands';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { useFakePlatform } from '../support/started';
import { testCommand } from '../support/test-commands';
import { waitFor } from '../support/wait';

let bot: SlackBot;
const dm = `D${USERS.maintainer.id.slice(1)}`;
const LONG_LOG = Array.from({ length: 1500 }, (_, i) => `${i} ${'x'.repeat(30)}`).join('\n');

/** Test-only commands: one reads the files it was given, one answers with a file, one with a long log. */
const testCommands = [
  testCommand<z.ZodObject, AppServices>({
    name: 'peek',
    summary: 'Reads the files given with the command',
    async run({ invocation }) {
      const files = invocation.files ?? [];
      const lines: string[] = [];
      for (const file of files) {
        const chunks: Buffer[] = [];
        for await (const chunk of await file.open()) chunks.push(chunk as Buffer);
        lines.push(`${file.name} (${file.mimeType}, ${file.size}): ${Buffer.concat(chunks).toString()}`);
      }
      return { text: `files: ${files.length}\n${lines.join('\n')}` };
    },
  }),
  testCommand<z.ZodObject, AppServices>({
    name: 'transcript',
    summary: 'Answers with a card and a file',
    async run() {
      return {
        title: 'Transcript',
        text: 'Attached.',
        attachments: [{ filename: 'run.txt', content: 'step 1\nstep 2' }],
      };
    },
  }),
  testCommand<z.ZodObject, AppServices>({
    name: 'longlog',
    summary: 'Answers with a log too long for one message',
    async run() {
      return { title: 'Long log', code: { text: LONG_LOG } };
    },
  }),
];

useFakePlatform(startSlackBot, (started) => {
  bot = started;
  for (const command of testCommands) bot.app.runner.registry.add(command);
});

const dmText = (index: number) => JSON.stringify(bot.fake.channelMessages(dm)[index]?.attachments ?? '');

describe('Slack files and events', () => {
  it('hands files shared in the DM to the core as references that stream with the bot token', async () => {
    const file = bot.fake.hostFile('notes.txt', 'hello from slack');
    const foreign = { ...bot.fake.hostFile('evil.txt', 'x'), url_private_download: 'https://evil.example/f' };
    const event = bot.driver.eventBody({
      type: 'message',
      subtype: 'file_share',
      channel: dm,
      channel_type: 'im',
      user: USERS.maintainer.id,
      text: 'peek',
      ts: '1700000000.000100',
      files: [file, foreign],
    });
    const delivery = await bot.driver.event(event);
    expect(delivery.status).toBe(200);
    await waitFor(() => bot.fake.channelMessages(dm)[0]);
    expect(dmText(0)).toContain('files: 1');
    expect(dmText(0)).toContain('notes.txt (text/plain, 16): hello from slack');
  });

  it('runs an event once when Slack retries it (x-slack-retry-num)', async () => {
    const before = bot.fake.channelMessages(dm).length;
    const event = bot.driver.eventBody({
      type: 'message',
      channel: dm,
      channel_type: 'im',
      user: USERS.maintainer.id,
      text: 'peek',
      ts: '1700000000.000200',
    });
    await bot.driver.event(event);
    const retry = await bot.driver.event(event, {
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(retry.status).toBe(200);
    await waitFor(() => bot.fake.channelMessages(dm).length > before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await bot.settled();
    expect(bot.fake.channelMessages(dm)).toHaveLength(before + 1);
  });

  it('reads plain messages only in its DM: one in a channel, without a mention, runs nothing', async () => {
    const said = (channel: string, ts: string) =>
      bot.driver.eventBody({
        type: 'message',
        channel,
        channel_type: channel === dm ? 'im' : 'channel',
        user: USERS.maintainer.id,
        text: 'peek',
        ts,
      });
    const delivery = await bot.driver.event(said('C0CHATTER', '1700000000.000300'));
    expect(delivery.status).toBe(200);
    // The same words in the DM are answered: the check below would have seen an answer.
    const before = bot.fake.channelMessages(dm).length;
    await bot.driver.event(said(dm, '1700000000.000301'));
    await waitFor(() => bot.fake.channelMessages(dm).length > before);
    await bot.settled();
    expect(bot.fake.channelMessages('C0CHATTER')).toEqual([]);
  });

  it('answers an @mention in the thread of the mention, and ignores other bots', async () => {
    const mention = bot.driver.eventBody({
      type: 'app_mention',
      channel: 'C0MENTION',
      user: USERS.maintainer.id,
      text: `<@${bot.fake.options.botUserId}> peek`,
      ts: '1700000000.000300',
    });
    await bot.driver.event(mention);
    const reply = await waitFor(() => bot.fake.channelMessages('C0MENTION')[0]);
    expect(reply.thread_ts).toBe('1700000000.000300');
    await bot.driver.event(
      bot.driver.eventBody({
        type: 'message',
        channel: dm,
        channel_type: 'im',
        bot_id: 'BOTHER',
        text: 'peek',
        ts: '1.2',
      }),
    );
    await bot.settled();
    expect(bot.fake.channelMessages('C0MENTION')).toHaveLength(1);
  });

  it("uploads a card's file next to it (files upload v2), once however often the card is updated", async () => {
    await bot.driver.command(USERS.maintainer, 'C0FILES', '/transcript');
    const card = await waitFor(() => bot.fake.channelMessages('C0FILES')[0]);
    const upload = await waitFor(() => bot.fake.uploads.find((u) => u.channel === 'C0FILES'));
    expect(upload).toEqual({
      channel: 'C0FILES',
      thread_ts: card.ts,
      filename: 'run.txt',
      content: 'step 1\nstep 2',
      bytes: Buffer.from('step 1\nstep 2'),
    });
    expect(bot.fake.callsOf('files.getUploadURLExternal').at(-1)?.form).toMatchObject({
      filename: 'run.txt',
      length: '13',
    });
    const handle = {
      platform: 'slack' as const,
      conversationId: 'slack:T0TEST:C0FILES',
      ref: { channel: 'C0FILES', ts: card.ts },
    };
    await bot.app.publisher.update(handle, {
      title: 'Transcript',
      text: 'Still attached.',
      attachments: [{ filename: 'run.txt', content: 'step 1\nstep 2' }],
    });
    expect(card.versions).toHaveLength(2);
    expect(bot.fake.uploads.filter((u) => u.channel === 'C0FILES')).toHaveLength(1);
  });

  it('keeps a long log within Slack limits and attaches all of it as a file', async () => {
    await bot.driver.command(USERS.maintainer, 'C0LONG', '/longlog');
    const card = await waitFor(() => bot.fake.channelMessages('C0LONG')[0]);
    expect(JSON.stringify(card.attachments)).toContain('attached file long-log.txt');
    const upload = await waitFor(() => bot.fake.uploads.find((u) => u.channel === 'C0LONG'));
    expect(upload.content).toContain(LONG_LOG);
    expect(upload.thread_ts).toBe(card.ts);
  });
});
