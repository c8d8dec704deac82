import { createHash, randomBytes } from 'node:crypto';
import { envvarsOf } from '@deckhand/sandbox/toolhost/envvars';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FakeMessage } from '../fakes/telegram';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { testCommand } from '../support/test-commands';
import { waitFor } from '../support/wait';

const TIMEOUT_MS = 2500;
let deckhand: TelegramDeckhand;

const MB = 1024 * 1024;

/** What the test command read from the files it was given. */
const received: { name: string; size?: number; mimeType?: string; content: Buffer; chunks: number }[] = [];

/** A test-only command that reads every file it is given, as the media upload will. */
const ingest = testCommand({
  name: 'ingest',
  summary: 'Read the attached files',
  async run({ invocation }) {
    const files = invocation.files ?? [];
    for (const file of files) {
      const chunks: Buffer[] = [];
      for await (const chunk of await file.open()) chunks.push(chunk as Buffer);
      received.push({
        name: file.name,
        ...(file.size !== undefined ? { size: file.size } : {}),
        ...(file.mimeType ? { mimeType: file.mimeType } : {}),
        content: Buffer.concat(chunks),
        chunks: chunks.length,
      });
    }
    return { text: `Got ${files.map((f) => f.name).join(', ') || 'no file'}.`, status: 'success' as const };
  },
});

/** What the test-only multi-step form command received. */
const posted: Record<string, unknown>[] = [];

/** A test-only command with a three-field form: plain, optional and secret. */
const eventForm = testCommand({
  name: 'eventform',
  summary: 'Post an event (form test)',
  args: z.object({
    title: z.string().optional(),
    details: z.string().optional(),
    password: z.string().optional(),
  }),
  sideEffect: true,
  secretArgs: ['password'],
  async run({ args, openForm }) {
    if (!args.title) {
      await openForm({
        title: 'New event',
        intro: 'Three questions.',
        fields: [
          { name: 'title', label: 'Title' },
          { name: 'details', label: 'Details', optional: true, multiline: true },
          { name: 'password', label: 'Calendar password', secret: true },
        ],
        command: 'eventform',
        args: {},
      });
      return undefined;
    }
    posted.push(args);
    return { text: `Posted ${args.title}.`, status: 'success' };
  },
});

beforeAll(async () => {
  deckhand = await startTelegramDeckhand({
    // The cloud Bot API's download limit, as when TELEGRAM_API_ROOT is left at api.telegram.org.
    adapter: { formTimeoutMs: TIMEOUT_MS, downloadLimitBytes: 20 * MB },
    commands: [eventForm, ingest] as never,
    env: { TOOL_MAINTAINERS: 'mytool=telegram:502,mytool=telegram:888' },
  });
});
afterAll(async () => {
  await deckhand?.close();
});
afterEach(() => {
  deckhand.fake.assertClean();
  received.length = 0;
});

function envvar(name: string): string | undefined {
  return envvarsOf(deckhand.app.emulators.toolhost?.ctx as never, 'mytool').get(name);
}

/** Opens the user's private chat (as pressing Start does) and waits for the bot's greeting. */
async function started(user: TelegramDeckhand['users']['admin']) {
  const { fake } = deckhand;
  const chat = fake.privateChat(user);
  if (fake.botMessages(chat.id).length === 0) {
    fake.sendText(user, chat, '/start');
    await waitFor(() => fake.botMessages(chat.id).length > 0);
  }
  return chat;
}

async function prompt(chatId: number, text: string): Promise<FakeMessage> {
  return waitFor(() => deckhand.fake.botMessages(chatId).find((m) => m.text.includes(text)));
}

/** Everything the bot sent anywhere, every version of every message, and every parameter. */
function everythingSent(): string {
  return JSON.stringify(deckhand.fake.calls.map((c) => c.params));
}

describe('Telegram forms as private conversations', () => {
  it('asks for a secret step by step in the private chat, deletes the answer, and runs the command', async () => {
    const { fake, users } = deckhand;
    const dm = await started(users.admin);
    const group = fake.group('ops');
    fake.sendText(users.admin, group, '/envvars set mytool API_KEY');
    await waitFor(() =>
      fake.botMessages(group.id).find((m) => m.text.includes('I sent you a private message')),
    );
    const question = await prompt(dm.id, 'Step 1 of 1: Value of API_KEY');
    expect(question.text).toContain('Set API_KEY of mytool');
    expect(question.replyMarkup?.inline_keyboard.flat().map((b) => b.text)).toEqual(['Cancel']);

    const secret = 'sk-live-9f8e7d6c5b4a3210';
    const { message } = fake.sendText(users.admin, dm, secret);
    await prompt(dm.id, 'Set API_KEY of mytool (value');
    expect(envvar('API_KEY')).toBe(secret);
    expect(message?.deleted).toBe(true);
    expect(question.text).toContain('✓ received (hidden)');
    expect(question.replyMarkup).toBeUndefined();
    expect(everythingSent()).not.toContain(secret);
    expect(
      fake
        .botMessages(group.id)
        .map((m) => m.text)
        .join('\n'),
    ).not.toContain(secret);
  });

  it('stops at Cancel: nothing changes, and the next message is no longer taken as an answer', async () => {
    const { fake, users } = deckhand;
    const dm = await started(users.maintainer);
    fake.sendText(users.maintainer, dm, '/envvars set mytool CANCELLED_VAR');
    const question = await prompt(dm.id, 'Value of CANCELLED_VAR');
    fake.click(users.maintainer, question, 'Cancel');
    await waitFor(() => question.text.includes('Cancelled; nothing was changed.'));
    fake.sendText(users.maintainer, dm, 'not-a-secret-anymore');
    await prompt(dm.id, 'Type /help');
    expect(envvar('CANCELLED_VAR')).toBeUndefined();
  });

  it('stops at /cancel too', async () => {
    const { fake, users } = deckhand;
    const dm = await started(users.maintainer);
    fake.sendText(users.maintainer, dm, '/envvars set mytool SLASH_CANCELLED');
    const question = await prompt(dm.id, 'Value of SLASH_CANCELLED');
    fake.sendText(users.maintainer, dm, '/cancel');
    await waitFor(() => question.text.includes('Cancelled; nothing was changed.'));
    expect(envvar('SLASH_CANCELLED')).toBeUndefined();
  });

  it('times out: the question says so and a late answer changes nothing', async () => {
    const { fake, users } = deckhand;
    const dm = await started(users.admin);
    fake.sendText(users.admin, dm, '/envvars set mytool TOO_LATE');
    const question = await prompt(dm.id, 'Value of TOO_LATE');
    expect(question.text).toMatch(/times out in \d+ s/);
    await waitFor(() => question.text.includes('Timed out'), TIMEOUT_MS + 3000);
    fake.sendText(users.admin, dm, 'late-value-123456');
    await prompt(dm.id, 'Type /help');
    expect(envvar('TOO_LATE')).toBeUndefined();
  });

  it('waits for a user who never opened a private chat: a Start link, then the questions', async () => {
    const { fake } = deckhand;
    const newcomer = fake.user(888, 'Noor', 'noor');
    const group = fake.group('ops-newcomer');
    fake.sendText(newcomer, group, '/envvars@deckhand_bot set mytool FROM_LINK');
    const note = await waitFor(() =>
      fake.botMessages(group.id).find((m) => m.text.includes('Open it with the button')),
    );
    const link = note.replyMarkup?.inline_keyboard.flat()[0];
    const start = /start=(f_[0-9A-Za-z]+)$/.exec((link as { url: string }).url)?.[1];
    expect(start).toBeDefined();
    // One note only: the private "Opened a form" answer does not add a second one.
    expect(fake.botMessages(group.id)).toHaveLength(1);
    const dm = fake.privateChat(newcomer);
    fake.sendText(newcomer, dm, `/start ${start}`);
    await prompt(dm.id, 'Value of FROM_LINK');
    fake.sendText(newcomer, dm, 'linked-value-42');
    await prompt(dm.id, 'Set FROM_LINK of mytool (value');
    expect(envvar('FROM_LINK')).toBe('linked-value-42');
  });

  it('walks through several fields in order, with Skip for an optional one', async () => {
    const { fake, users } = deckhand;
    const dm = await started(users.stranger);
    fake.sendText(users.stranger, dm, '/eventform');
    const first = await prompt(dm.id, 'Step 1 of 3: Title');
    expect(first.text).toContain('Three questions.');
    fake.sendText(users.stranger, dm, 'Launch <party> & cake');
    const second = await prompt(dm.id, 'Step 2 of 3: Details (optional)');
    expect(first.text).toContain('Title — ✓ Launch <party> & cake');
    expect(second.replyMarkup?.inline_keyboard.flat().map((b) => b.text)).toEqual(['Cancel', 'Skip']);
    fake.click(users.stranger, second, 'Skip');
    await prompt(dm.id, 'Step 3 of 3: Calendar password');
    expect(second.text).toContain('Details — ✓ skipped');
    fake.sendText(users.stranger, dm, 'hunter2-but-longer');
    await prompt(dm.id, 'Posted Launch <party> & cake.');
    expect(posted).toEqual([{ title: 'Launch <party> & cake', password: 'hunter2-but-longer' }]);
    expect(everythingSent()).not.toContain('hunter2-but-longer');
  });
});

describe('Telegram incoming files', () => {
  it('hands a document sent to the bot to the core as a streamable file with its content', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    const content = randomBytes(3 * MB);
    fake.sendFile(
      users.admin,
      chat,
      { name: 'dump.bin', content, mimeType: 'application/octet-stream' },
      '/ingest',
    );
    await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('Got dump.bin')));
    expect(received).toHaveLength(1);
    const [file] = received;
    expect(file?.name).toBe('dump.bin');
    expect(file?.size).toBe(content.length);
    expect(file?.mimeType).toBe('application/octet-stream');
    expect(
      createHash('sha256')
        .update(file?.content as Buffer)
        .digest('hex'),
    ).toBe(createHash('sha256').update(content).digest('hex'));
    expect(file?.chunks).toBeGreaterThan(1);
    expect(fake.callsTo('getFile')).toHaveLength(1);
  });

  it('takes videos and audio too, and files addressed to it in a group', async () => {
    const { fake, users } = deckhand;
    const group = fake.group('media');
    fake.sendFile(
      users.admin,
      group,
      { name: 'clip.mp4', content: 'video-bytes', mimeType: 'video/mp4', kind: 'video' },
      '/ingest@deckhand_bot',
    );
    await waitFor(() => fake.botMessages(group.id).find((m) => m.text.includes('Got clip.mp4')));
    fake.sendFile(
      users.admin,
      group,
      { name: 'talk.mp3', content: 'audio-bytes', mimeType: 'audio/mpeg', kind: 'audio' },
      '/ingest@deckhand_bot',
    );
    await waitFor(() => fake.botMessages(group.id).find((m) => m.text.includes('Got talk.mp3')));
    expect(received.map((f) => [f.name, f.content.toString()])).toEqual([
      ['clip.mp4', 'video-bytes'],
      ['talk.mp3', 'audio-bytes'],
    ]);
  });

  it('refuses a file over the 20 MB limit up front with a clear message, and runs nothing', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.admin);
    const getFiles = fake.callsTo('getFile').length;
    fake.sendFile(
      users.admin,
      chat,
      { name: 'movie.mkv', size: 25 * MB, mimeType: 'video/x-matroska' },
      '/ingest',
    );
    const reply = await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('movie.mkv')));
    expect(reply.text).toContain(
      'movie.mkv is 25.0 MB, and Telegram lets bots download files up to 20.0 MB only.',
    );
    expect(reply.text).toMatch(/remote upload by URL/);
    expect(reply.text).toMatch(/local Bot API server/);
    expect(received).toEqual([]);
    expect(fake.callsTo('getFile')).toHaveLength(getFiles);
  });

  it('gives the same message when only getFile finds out the file is too big', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.maintainer);
    fake.sendFile(users.maintainer, chat, { name: 'huge.zip', size: 30 * MB, hideSize: true }, '/ingest');
    const reply = await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes('huge.zip')));
    expect(reply.text).toMatch(
      /huge\.zip is [\d.]+ MB, and Telegram lets bots download files up to 20\.0 MB only/,
    );
    expect(reply.text).not.toMatch(/went wrong on our side|at .*\.ts/);
    expect(fake.callsTo('getFile').at(-1)?.description).toBe('Bad Request: file is too big');
  });

  it('tells a user who sends a file without a command what to do', async () => {
    const { fake } = deckhand;
    const sender = fake.user(999, 'Fin');
    const chat = fake.privateChat(sender);
    fake.sendFile(sender, chat, { name: 'notes.txt', content: 'hi' });
    const reply = await waitFor(() => fake.botMessages(chat.id)[0]);
    expect(reply.text).toMatch(/send it again with a command in its caption/);
    expect(fake.callsTo('getFile').some((c) => c.params.file_id === undefined)).toBe(false);
  });
});
