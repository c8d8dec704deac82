/**
 * Each platform's way of writing to one person (`Messenger.openDirect`, used by personal
 * notifications), on the fakes that check every request against the platform's documented API:
 * Telegram's private chat (the user's id, only once they started the bot), Matrix's direct room
 * (created once with the person invited, then reused), IRC's private query to a services account,
 * and the terminal's own conversation. Slack and Discord are in their worker tests.
 */
import { describe, expect, it } from 'vitest';
import { IrcMessenger } from '../../adapters/irc/messenger';
import { roomOf } from '../../adapters/matrix/ids';
import { ShellAdapter } from '../../adapters/shell/shell-adapter';
import { ConversationGoneError } from '../../src/core/errors';
import { type MatrixDeckhand, MX_USERS, startMatrixDeckhand } from '../fakes/matrix/harness';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { useStarted } from '../support/started';

describe('Telegram: the private chat, once the person started the bot', () => {
  let t: TelegramDeckhand;
  useStarted(startTelegramDeckhand, (started) => {
    t = started;
  });

  it('posts in the private chat of someone who started the bot; someone who did not cannot be written to', async () => {
    const bot = String(t.fake.state.bot.id);
    const started = t.users.admin;
    const chat = t.fake.privateChat(started);
    t.fake.state.started.add(started.id);
    const person = { platform: 'telegram', workspace: bot, id: String(started.id), name: 'admin' };
    const direct = await t.app.messengers.openDirect(person);
    expect(direct).toBe(`telegram:${bot}:${started.id}`);
    const posted = await t.app.publisher.post(direct, { title: 'Your deployment ended', status: 'success' });
    // A private chat's messages have no link (supergroups' have, t.me/c/…).
    expect(await t.app.messengers.linkTo(posted)).toBeUndefined();
    expect(
      t.fake.state.messagesIn(chat.id).some((m) => JSON.stringify(m).includes('Your deployment ended')),
    ).toBe(true);
    const stranger = t.users.stranger;
    t.fake.privateChat(stranger);
    t.fake.state.started.delete(stranger.id);
    const other = await t.app.messengers.openDirect({ ...person, id: String(stranger.id), name: 'stranger' });
    const refused = await t.app.publisher.post(other, { title: 'Not for you' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConversationGoneError);
    expect(String((refused as Error).message)).toContain("can't initiate conversation");
  });
});

describe('Matrix: a direct room, created once and reused', () => {
  let t: MatrixDeckhand;
  useStarted(startMatrixDeckhand, (started) => {
    t = started;
  });

  it('creates a direct room with the person invited, posts there, and reuses it', async () => {
    const person = { platform: 'matrix', workspace: t.fake.botUserId, id: MX_USERS.maintainer, name: 'max' };
    const direct = await t.app.messengers.openDirect(person);
    expect(await t.app.messengers.openDirect(person)).toBe(direct);
    const creates = t.fake.callsOf('createRoom');
    expect(creates).toHaveLength(1);
    expect(creates[0]?.body).toMatchObject({ is_direct: true, invite: [MX_USERS.maintainer] });
    const posted = await t.app.publisher.post(direct, { title: 'Your deployment ended', status: 'success' });
    const { roomId } = roomOf(direct);
    expect(await t.app.messengers.linkTo(posted)).toBe(
      `https://matrix.to/#/${encodeURIComponent(roomId)}/${encodeURIComponent(posted.ref.message as string)}`,
    );
    expect(t.fake.state.rooms.get(roomId)?.members.get(MX_USERS.maintainer)).toBe('join');
    expect(t.people.botMessages(roomId).map((m) => m.body.includes('Your deployment ended'))).toEqual([true]);
    expect(t.fake.violations).toEqual([]);
  });
});

describe('IRC: a private query to the services account', () => {
  const messenger = new IrcMessenger({} as never);

  it("queries the account's nick; someone not identified with services gets nothing", async () => {
    const person = { platform: 'irc', workspace: 'libera', id: 'ada', name: 'ada_ (ada)' };
    expect(await messenger.openDirect(person)).toBe('irc:libera:ada');
    await expect(messenger.openDirect({ ...person, id: '~ada_' })).rejects.toBeInstanceOf(
      ConversationGoneError,
    );
  });
});

describe('the terminal', () => {
  it('prints direct messages in its one conversation', async () => {
    const shell = new ShellAdapter({ userName: 'ada' } as never);
    expect(await shell.openDirect()).toBe(shell.conversationId);
  });
});
