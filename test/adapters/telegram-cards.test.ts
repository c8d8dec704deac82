import { jobsRuntimeOf } from '@deckhand/sandbox/toolhost/jobs-engine';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TelegramAdapter } from '../../adapters/telegram/adapter';
import { jobCard } from '../../commands/toolhost/job-card';
import { Messengers } from '../../src/core/messenger';
import { translator } from '../../src/i18n/translate';
import { silentLogger } from '../../src/log';
import type { Job } from '../../src/services/toolhost';
import { DeliveryDeduper } from '../../src/store/dedupe';
import type { FakeMessage } from '../fakes/telegram';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { useStarted } from '../support/started';
import { slowCommand, testCommand } from '../support/test-commands';
import { waitFor } from '../support/wait';

const HOSTILE = '<b>web</b> & co';
const LOG = Array.from({ length: 800 }, (_, i) => `10:00:${i} step ${i} <ok> & done`).join('\n');

/** Test-only commands: a job card whose job name is markup, a long log, a long text, a slow one. */
const commands = [
  testCommand({
    name: 'echo',
    summary: 'Says the words back, publicly',
    args: z.object({ words: z.array(z.string()).default([]) }),
    positional: ['words'],
    examples: ['/echo hello'],
    run: async ({ args }) => ({ text: `You said: ${args.words.join(' ')}` }),
  }),
  slowCommand,
  testCommand({
    name: 'hostile',
    summary: 'A job card for a job named like markup',
    run: async () =>
      jobCard(
        'mytool',
        {
          name: HOSTILE,
          job_type: 'continuous',
          cmd: './run --flag "<i>&amp;</i>"',
          image: 'python3.11',
          status: { short: 'running', messages: [] },
        } as unknown as Job,
        translator('en'),
      ),
  }),
  testCommand({
    name: 'biglog',
    summary: 'A long log',
    run: async () => ({ title: 'Logs of web', code: { text: LOG }, status: 'info' as const }),
  }),
  testCommand({
    name: 'longtext',
    summary: 'A long text with a button',
    run: async () => ({
      title: 'Report',
      text: Array.from({ length: 300 }, (_, i) => `line ${i} ${'-'.repeat(40)}`).join('\n'),
      actions: [{ label: 'Again', command: 'longtext', args: {} }],
    }),
  }),
];

let deckhand: TelegramDeckhand;

function deckhandContext() {
  return {
    app: deckhand.app,
    web: deckhand.web,
    config: deckhand.config,
    logger: silentLogger,
    deduper: new DeliveryDeduper(deckhand.app.redis.redis, deckhand.config.REDIS_KEY_PREFIX),
  };
}

useStarted(
  () => startTelegramDeckhand({ commands: commands as never }),
  (started) => {
    deckhand = started;
  },
);
afterEach(() => {
  deckhand.fake.assertClean();
});

function restartsOf(tool: string, job: string): number {
  const ctx = deckhand.app.emulators.toolhost?.ctx;
  if (!ctx) throw new Error('no sandbox');
  return jobsRuntimeOf(ctx).get(tool, job)?.restarts ?? -1;
}

/** Shows the job card of mytool/web in a chat and returns it. */
async function showJobCard(chat: Parameters<TelegramDeckhand['fake']['sendText']>[1]): Promise<FakeMessage> {
  const { fake, users } = deckhand;
  const before = fake.botMessages(chat.id).length;
  fake.sendText(users.admin, chat, '/jobs show mytool web');
  return waitFor(() => fake.botMessages(chat.id)[before]);
}

/** Waits until every callback query the fake delivered was answered, then a little for stragglers. */
async function settled(count: number): Promise<void> {
  const { fake } = deckhand;
  await waitFor(() => fake.callsTo('answerCallbackQuery').filter((c) => c.status === 200).length >= count);
  await new Promise((resolve) => setTimeout(resolve, 300));
}

describe('Telegram cards', () => {
  it('shows a job named <b>web</b> & co literally (recorded HTML escaped, no markup of its own)', async () => {
    const { fake, users } = deckhand;
    const group = fake.group('ops');
    fake.sendText(users.admin, group, '/hostile');
    const card = await waitFor(() => fake.botMessages(group.id)[0]);
    expect(card.html).toContain('<b>Job &lt;b&gt;web&lt;/b&gt; &amp; co of mytool</b>');
    expect(card.html).toContain('./run --flag "&lt;i&gt;&amp;amp;&lt;/i&gt;"');
    expect(card.html).not.toContain(HOSTILE);
    expect(card.text).toContain(`Job ${HOSTILE} of mytool`);
    expect(card.text).toContain('./run --flag "<i>&amp;</i>"');
    const title = card.text.indexOf('Job ');
    const bold = card.entities.filter((e) => e.type === 'bold');
    expect(bold[0]).toEqual({ type: 'bold', offset: title, length: `Job ${HOSTILE} of mytool`.length });
    expect(card.entities.some((e) => e.type === 'italic')).toBe(false);
  });

  it('sends a log longer than a message as its tail plus the whole log as a document', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    fake.sendText(users.admin, chat, '/biglog');
    const doc = await waitFor(() => fake.botMessages(chat.id).find((m) => m.document));
    const [message] = fake.botMessages(chat.id);
    expect(message?.text.length).toBeLessThanOrEqual(4096);
    expect(message?.text).toContain('step 799 <ok> & done');
    expect(doc.document?.fileName).toBe('logs_of_web.txt');
    expect(doc.document?.content?.toString()).toBe(LOG);
    expect(doc.text).toBe('📎 Logs of web');
    const upload = fake.callsTo('sendDocument').at(-1);
    expect(upload?.files).toHaveLength(1);
  });

  it('splits a long text over several messages, with the buttons on the last', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.maintainer);
    fake.sendText(users.maintainer, chat, '/longtext');
    await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('line 299')));
    const parts = fake.botMessages(chat.id);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(part.text.length).toBeLessThanOrEqual(4096);
    expect(parts.slice(0, -1).every((p) => p.replyMarkup === undefined)).toBe(true);
    expect(parts.at(-1)?.replyMarkup?.inline_keyboard.flat()[0]?.text).toBe('Again');
  });

  it('lets another process edit a posted card by its stored handle; an unchanged edit is no error', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.stranger);
    fake.sendText(users.stranger, chat, 'hello');
    await waitFor(() => fake.botMessages(chat.id).length > 0);
    const conversationId = deckhand.adapter.conversationId(chat.id);
    const handle = await deckhand.adapter.messenger.post(conversationId, {
      title: 'Build',
      status: 'progress',
    });
    const stored = JSON.parse(JSON.stringify(handle));

    // A worker process: the adapter in the worker role with nothing but the handle (and its own
    // messenger registry). It receives nothing (no polling, no webhook); it asks getMe once, to name
    // the bot in the links of the commands it answers.
    const { app, web, config, logger, deduper } = deckhandContext();
    const calls = fake.calls.length;
    const worker = new TelegramAdapter(
      { app: { ...app, messengers: new Messengers() }, web, config, logger, deduper, role: 'worker' },
      { throttle: { out: { maxConcurrent: 1, minTime: 0 } } },
    );
    await worker.start();
    expect(worker.mode).toBe('send-only');
    await worker.messenger.update(stored, { title: 'Build', text: 'done & dusted', status: 'success' });
    await worker.messenger.update(stored, { title: 'Build', text: 'done & dusted', status: 'success' });
    await worker.stop();
    expect(fake.calls.slice(calls).map((c) => c.method)).toEqual([
      'getMe',
      'editMessageText',
      'editMessageText',
    ]);
    const card = fake.botMessages(chat.id).find((m) => String(m.messageId) === handle.ref.message);
    expect(card?.text).toBe('✅ Build\n\ndone & dusted');
    expect(card?.versions).toHaveLength(2);
    expect(fake.callsTo('editMessageText').at(-1)?.description).toMatch(/message is not modified/);
  });
});

describe('Telegram inline buttons', () => {
  it('restarts the job once when the Restart callback is delivered twice (same update_id)', async () => {
    const { fake, users } = deckhand;
    const group = fake.group('ops');
    const card = await showJobCard(group);
    const before = restartsOf('mytool', 'web');
    const answered = fake.callsTo('answerCallbackQuery').length;
    const { update, callbackId } = fake.click(users.admin, card, 'Restart', { deliver: false });
    fake.push(update, update);
    const reply = await waitFor(() => fake.botMessages(group.id).find((m) => m.text.includes('restarted')));
    await settled(answered + 1);
    expect(restartsOf('mytool', 'web')).toBe(before + 1);
    expect(fake.state.callbacks.get(callbackId)?.answeredAt).toBeDefined();
    expect(fake.callsTo('answerCallbackQuery').slice(answered)).toHaveLength(1);
    expect(fake.botMessages(group.id).filter((m) => m.text.includes('restarted'))).toEqual([reply]);
    expect(reply.replyTo).toBe(card.messageId);
  });

  it('restarts once for a double click (two callback queries), and answers both at once', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    const card = await showJobCard(chat);
    const before = restartsOf('mytool', 'web');
    const answered = fake.callsTo('answerCallbackQuery').length;
    const first = fake.click(users.admin, card, 'Restart');
    const second = fake.click(users.admin, card, 'Restart');
    await settled(answered + 2);
    expect(restartsOf('mytool', 'web')).toBe(before + 1);
    for (const { callbackId } of [first, second]) {
      const query = fake.state.callbacks.get(callbackId);
      expect(query?.answeredAt).toBeDefined();
      expect((query?.answeredAt ?? 0) - (query?.createdAt ?? 0)).toBeLessThan(5000);
    }
  });

  it("checks the rights of the person who clicks, not of the card's author", async () => {
    const { fake, users } = deckhand;
    const group = fake.group('ops-rights');
    const card = await showJobCard(group);
    const dm = fake.privateChat(users.stranger);
    fake.sendText(users.stranger, dm, '/start');
    await waitFor(() => fake.botMessages(dm.id).length > 0);
    const before = restartsOf('mytool', 'web');
    fake.click(users.stranger, card, 'Restart');
    const refusal = await waitFor(() =>
      fake.botMessages(dm.id).find((m) => /maintainers of mytool/i.test(m.text)),
    );
    expect(refusal.text).not.toMatch(/at .*\.ts/);
    expect(restartsOf('mytool', 'web')).toBe(before);
    expect(fake.botMessages(group.id)).toHaveLength(1);
  });

  it('tells a user who never opened a private chat where the private answer went', async () => {
    const { fake } = deckhand;
    const group = fake.group('ops-dm');
    const card = await showJobCard(group);
    const newcomer = fake.user(777, 'Nia');
    fake.click(newcomer, card, 'Restart');
    const note = await waitFor(() =>
      fake.botMessages(group.id).find((m) => m.text.includes('Open it with the button')),
    );
    expect(note.replyMarkup?.inline_keyboard.flat()[0]).toMatchObject({
      url: 'https://t.me/deckhand_bot?start=hello',
    });
    expect(note.text).not.toMatch(/maintainers/);
  });

  it('answers a press of an expired button, and says so', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    const card = await showJobCard(chat);
    const button = card.replyMarkup?.inline_keyboard.flat().find((b) => b.text === 'Logs');
    await deckhand.app.redis.redis.del(
      `${deckhand.config.REDIS_KEY_PREFIX}action:${(button as { callback_data: string }).callback_data}`,
    );
    const { callbackId } = fake.click(users.admin, card, 'Logs');
    await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('This button has expired')));
    expect(fake.state.callbacks.get(callbackId)?.answeredAt).toBeDefined();
  });

  it('answers a press at once even while a slow command of the same chat is still running', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    const card = await showJobCard(chat);
    fake.sendText(users.admin, chat, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { callbackId } = fake.click(users.admin, card, 'Logs');
    const reply = await waitFor(() =>
      fake.botMessages(chat.id).find((m) => m.text.includes('Slow work done.')),
    );
    const answeredAt = fake.state.callbacks.get(callbackId)?.answeredAt;
    expect(answeredAt).toBeDefined();
    expect(answeredAt).toBeLessThan(reply.versions[0]?.at as number);
  });

  it('handles the updates of one chat in order, and other chats meanwhile', async () => {
    const { fake, users } = deckhand;
    const ordered = fake.group('ordered');
    const other = fake.group('other');
    fake.sendText(users.admin, ordered, '/slow');
    fake.sendText(users.admin, ordered, '/jobs quota mytool');
    fake.sendText(users.admin, other, '/jobs quota mytool');
    await waitFor(() => fake.botMessages(other.id).length === 1);
    expect(fake.botMessages(ordered.id)).toEqual([]);
    await waitFor(() => fake.botMessages(ordered.id).length === 2);
    const [first, second] = fake.botMessages(ordered.id);
    expect(first?.text).toContain('Slow work done.');
    expect(second?.text).toMatch(/quota/i);
  });

  it('masks known secrets in public cards, yet shows a token privately to whoever asked for it', async () => {
    const { fake, users } = deckhand;
    const dm = fake.privateChat(users.admin);
    fake.sendText(users.admin, dm, '/token show mytool');
    const shown = await waitFor(() =>
      fake.botMessages(dm.id).find((m) => m.text.includes('Deploy token of mytool')),
    );
    const token = /Token: (\S+)/.exec(shown.text)?.[1] as string;
    expect(token).toMatch(/^[A-Za-z0-9-]{10,}$/);
    const group = fake.group('leaky');
    fake.sendText(users.admin, group, `/echo here it is ${token}`);
    const echoed = await waitFor(() => fake.botMessages(group.id).find((m) => m.text.includes('You said')));
    expect(echoed.text).toBe('You said: here it is [redacted]');
  });
});
