/**
 * Real Bot API payloads replayed against the Telegram adapter (fixtures/telegram-captures.ts names
 * their sources): an anonymous admin's command, a group upgraded to a supergroup, a reply refused
 * because the group moved, a captioned photo, and a person who blocked the bot.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { MediaSandbox } from '@deckhand/sandbox/media';
import type { Chat, Update } from 'grammy/types';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { waitFor } from '../support/wait';
import {
  anonymousAdminCommand,
  botBlockedError,
  groupChatMigratedError,
  migrateFromMessage,
  migrateToMessage,
  photoMessage,
} from './fixtures/telegram-captures';

const PHOTO_SENDER = photoMessage('').from.id;
const lines: { level: number; msg: string }[] = [];
const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });

let deckhand: TelegramDeckhand;
const deliver = (message: unknown) => deckhand.fake.replay({ message } as Omit<Update, 'update_id'>);
const conversation = (chatId: number) => deckhand.adapter.conversationId(chatId);

beforeAll(async () => {
  deckhand = await startTelegramDeckhand({
    logger,
    env: { ADMINS: `telegram:501,telegram:${PHOTO_SENDER}` },
  });
});
afterAll(async () => {
  await deckhand?.close();
});

/** The bot's messages in a chat, as text. */
const said = (chatId: number) => deckhand.fake.botMessages(chatId).map((m) => m.text);

describe('Telegram payloads captured from the real Bot API', () => {
  it("answers an anonymous admin's command: it cannot tell who sent it; the same command from a person runs", async () => {
    const { fake, users } = deckhand;
    const captured = anonymousAdminCommand('/jobs show mytool web');
    fake.state.addChat(captured.chat as Chat);
    deliver(captured);
    const answer = await waitFor(() => said(captured.chat.id).find((t) => t.includes('cannot tell who')));
    expect(answer).toContain('I cannot tell who sent this command: it was sent anonymously as the group');
    expect(answer).toContain('Send it again as yourself');
    expect(said(captured.chat.id).some((t) => t.includes('Job web of mytool'))).toBe(false);
    // Positive control: a person's command in the same group is run and answered.
    fake.sendText(users.admin, captured.chat as Chat, '/jobs show mytool web');
    await waitFor(
      () => said(captured.chat.id).find((t) => t.includes('web')) && said(captured.chat.id).length > 1,
    );
    expect(said(captured.chat.id).at(-1)).not.toContain('cannot tell who');
  });

  it('follows a group upgraded to a supergroup: its binding, subscription and digest move to the new id', async () => {
    const { fake, users, app } = deckhand;
    const old = migrateToMessage.chat as Chat;
    fake.state.addChat(old);
    for (const [line, reply] of [
      ['/tool bind mytool', 'mytool'],
      ['/subscribe mytool', 'mytool'],
      ['/calendar digest --daily --at 09:00', 'digest'],
    ] as const) {
      const before = said(old.id).length;
      fake.sendText(users.admin, old, line);
      await waitFor(() => said(old.id).length > before && said(old.id).at(-1)?.includes(reply));
    }
    const from = conversation(old.id);
    const to = conversation(migrateFromMessage.chat.id);
    expect(await app.services.bindings.get(from)).toBe('mytool');
    // Telegram upgrades the group: the old id is refused from now on, and both service messages come.
    fake.state.addChat(migrateFromMessage.chat as Chat);
    fake.state.migrated.set(old.id, migrateFromMessage.chat.id);
    deliver(migrateToMessage);
    deliver(migrateFromMessage);
    await waitFor(async () => (await app.services.digests.get(to)) !== undefined, 15_000);
    expect(await app.services.bindings.get(to)).toBe('mytool');
    expect(await app.services.bindings.get(from)).toBeUndefined();
    expect((await app.services.subscriptions.forConversation(to)).map((s) => s.tool)).toEqual(['mytool']);
    expect(await app.services.subscriptions.forConversation(from)).toEqual([]);
    expect(await app.services.digests.get(from)).toBeUndefined();
    expect((await app.services.digests.get(to))?.at).toBe('09:00');
    // The supergroup is served as the bound conversation: a bare command finds its tool.
    fake.sendText(users.admin, migrateFromMessage.chat as Chat, '/jobs show web');
    await waitFor(() => said(migrateFromMessage.chat.id).some((t) => t.includes('web')));
  });

  it('sends a reply refused with "group chat was migrated" (migrate_to_chat_id) to the new supergroup, and moves the binding', async () => {
    const { fake, users, app } = deckhand;
    const group = fake.basicGroup('ops');
    fake.sendText(users.admin, group, '/tool bind mytool');
    await waitFor(() => said(group.id).some((t) => t.includes('mytool')));
    const upgraded = {
      id: groupChatMigratedError.parameters.migrate_to_chat_id,
      type: 'supergroup',
      title: 'ops',
    };
    fake.state.addChat(upgraded as Chat);
    fake.fault('sendMessage', {
      times: 1,
      code: groupChatMigratedError.error_code,
      description: groupChatMigratedError.description,
      parameters: groupChatMigratedError.parameters,
    });
    fake.sendText(users.admin, group, '/jobs show web');
    const resent = await waitFor(() => fake.botMessages(upgraded.id)[0]);
    expect(resent.text).toContain('web');
    expect(await app.services.bindings.get(conversation(upgraded.id))).toBe('mytool');
    expect(await app.services.bindings.get(conversation(group.id))).toBeUndefined();
  });

  it('an announcement to a group that became a supergroup is delivered there ("group chat was upgraded")', async () => {
    const { fake, users, app } = deckhand;
    const group = fake.basicGroup('deploys');
    fake.sendText(users.admin, group, '/subscribe mytool deploys');
    await waitFor(() => said(group.id).some((t) => t.includes('mytool')));
    const upgraded = { id: -1_001_777_000_001, type: 'supergroup', title: 'deploys' } as Chat;
    fake.state.addChat(upgraded);
    fake.state.migrated.set(group.id, upgraded.id);
    const dm = fake.privateChat(users.maintainer);
    fake.sendText(users.maintainer, dm, '/deploy mytool');
    await waitFor(() => fake.botMessages(upgraded.id).length > 0, 30_000);
    expect(
      fake
        .callsTo('sendMessage')
        .some((c) => c.params.chat_id === group.id && /upgraded/.test(c.description ?? '')),
    ).toBe(true);
    expect((await app.services.subscriptions.forConversation(conversation(upgraded.id))).length).toBe(1);
  });

  it('uploads the largest size of a photo captioned /media upload', async () => {
    const { fake, app } = deckhand;
    const captured = photoMessage('/media upload');
    fake.state.addChat(captured.chat as Chat);
    fake.state.started.add(captured.chat.id);
    const contents = new Map<string, Buffer>();
    for (const size of captured.photo) {
      const content = randomBytes(size.file_size);
      contents.set(size.file_id, content);
      fake.state.files.set(size.file_id, {
        fileId: size.file_id,
        fileUniqueId: size.file_unique_id,
        size: size.file_size,
        content,
        mimeType: 'image/jpeg',
        path: `photos/file_${size.file_unique_id}.jpg`,
      });
    }
    deliver(captured);
    const done = await waitFor(
      () => fake.botMessages(captured.chat.id).find((m) => m.text.includes('Uploaded')),
      20_000,
    );
    expect(said(captured.chat.id).join('\n')).not.toContain('There is no file to upload');
    const code = /\/d\/([a-z0-9]+)/.exec(done.html ?? '')?.[1] as string;
    const stored = (app.emulators.media as MediaSandbox).controls.file(code);
    const largest = captured.photo.at(-1) as (typeof captured.photo)[number];
    expect(stored?.size).toBe(largest.file_size);
    const hash = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    expect(hash(readFileSync(stored?.path as string))).toBe(hash(contents.get(largest.file_id) as Buffer));
  });

  it('a person who blocked the bot (403) is a warning, not an error', async () => {
    const { fake, users } = deckhand;
    const dm = fake.privateChat(users.stranger);
    const before = lines.length;
    fake.fault('sendMessage', {
      times: 1,
      code: botBlockedError.error_code,
      description: botBlockedError.description,
    });
    fake.sendText(users.stranger, dm, '/jobs show mytool web');
    // The bot did try to answer (Telegram refused it), and said so at warning level.
    await waitFor(() =>
      lines.slice(before).find((l) => l.msg === 'telegram user turned the bot away; answer dropped'),
    );
    expect(fake.callsTo('sendMessage').some((c) => c.params.chat_id === dm.id && c.status === 403)).toBe(
      true,
    );
    expect(lines.slice(before).filter((l) => l.level >= 50)).toEqual([]);
  });
});
