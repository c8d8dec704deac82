/**
 * The Matrix adapter against the fake homeserver, as people see it: invitations (allowed servers,
 * encrypted rooms), prefixed commands answered in the command's thread, a deployment card edited in
 * place (`m.replace`), a file sent in the room uploaded to the media host, a 429 waited out. Every
 * request the adapter sent is valid against the published Client-Server API description (the fake
 * records each one that is not, and the suite fails on it).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { MediaSandbox } from '@deckhand/sandbox/media';
import { describe, expect, it } from 'vitest';
import { ENCRYPTED_ROOM } from '../../adapters/matrix/rooms';
import { type MatrixDeckhand, MX_USERS, roomWithBot, startMatrixDeckhand } from '../fakes/matrix/harness';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let t: MatrixDeckhand;
let room: string;

useFakePlatform(
  async () => {
    const started = await startMatrixDeckhand({ env: { UPLOAD_EDIT_MS: '100' } });
    room = await roomWithBot(started, 'ops');
    return started;
  },
  (started) => {
    t = started;
  },
);

/** The bot's membership event in a room once it is a leave (a refused invitation). */
const left = (roomId: string) => {
  const membership = t.people.botMembership(roomId);
  return membership?.content.membership === 'leave' ? membership : undefined;
};
/** The bot's messages in the thread of `root`. */
const inThread = (root: string) => t.people.botMessages(room).filter((m) => m.thread === root);
/** The bot's messages in its direct room with `user`. */
const direct = (user: string) => {
  const id = t.people.directRoom(user);
  return id ? t.people.botMessages(id) : [];
};

describe('Matrix invitations', () => {
  it('refuses an invitation from a server that is not allowed, saying why', async () => {
    const other = t.people.inviteBot(MX_USERS.outsider, 'elsewhere');
    const refused = await waitFor(() => left(other));
    expect(refused.content.reason).toBe('Deckhand accepts invitations from people on fake.test only.');
    expect(t.people.botJoined(other)).toBe(false);
  });

  it('refuses an encrypted room clearly: it does no end-to-end encryption', async () => {
    const secret = t.people.inviteBot(MX_USERS.admin, 'secret', { encrypted: true });
    const refused = await waitFor(() => left(secret));
    expect(refused.content.reason).toBe(ENCRYPTED_ROOM);
    expect(t.people.botMessages(secret)).toEqual([]);
  });
});

describe('Matrix commands', () => {
  it('answers !deckhand help privately in the direct room, noting it in the thread, with no ping', async () => {
    const ask = t.people.say(MX_USERS.stranger, room, '!deckhand help');
    const [note] = await waitFor(() => (inThread(ask.event_id).length ? inThread(ask.event_id) : undefined));
    expect(note?.body).toContain('it is in our direct room');
    const help = await waitFor(() => direct(MX_USERS.stranger).find((m) => m.body.includes('deploy')));
    expect(help?.body).toContain('!deploy');
    expect(help?.body).not.toContain('/deploy ');
    const event = t.fake.state.rooms.get(room)?.events.find((e) => e.event_id === note?.eventId);
    expect(event?.content['m.mentions']).toEqual({});
    expect(event?.content.msgtype).toBe('m.notice');
  });

  it('ignores lines for other bots and chatter', async () => {
    const before = t.people.botMessages(room).length;
    t.people.say(MX_USERS.stranger, room, '!ban someone');
    t.people.say(MX_USERS.stranger, room, 'deploy mytool please');
    // Another bot's notice is never answered, even when it reads like a command.
    t.fake.state.addEvent(t.fake.state.rooms.get(room) as never, '@otherbot:fake.test', 'm.room.message', {
      msgtype: 'm.notice',
      body: '!deploy mytool',
    });
    const marker = t.people.say(MX_USERS.stranger, room, '!deploy');
    await waitFor(() => inThread(marker.event_id).length > 0);
    expect(t.people.botMessages(room).length - before).toBe(1);
  });

  it('!deploy mytool by an admin: the deployment card is edited to its end state in the thread', async () => {
    const ask = t.people.say(MX_USERS.admin, room, '!deploy mytool');
    const done = await waitFor(
      () =>
        inThread(ask.event_id).find((m) => /deploy/i.test(m.body) && m.edits > 0 && m.body.startsWith('✅')),
      30_000,
    );
    expect(done.body).toMatch(/mytool/);
    expect(done.html).toContain('<strong>');
  });

  it('a stranger cannot deploy: refused in words, nothing started', async () => {
    const before = direct(MX_USERS.stranger).length;
    const ask = t.people.say(MX_USERS.stranger, room, '!deploy mytool');
    const answer = await waitFor(() =>
      [...inThread(ask.event_id), ...direct(MX_USERS.stranger).slice(before)].find((m) =>
        /not allowed|permission|maintainer|may not/i.test(m.body),
      ),
    );
    expect(answer.body).toMatch(/mytool/);
  });
});

describe('Matrix files', () => {
  it('a file sent with !media upload as its caption goes to the media host, streamed from the media repository', async () => {
    const content = randomBytes(200_000);
    const sent = t.people.sendFile(
      MX_USERS.admin,
      room,
      'trailer.mp4',
      content,
      '!media upload --title Trailer',
    );
    const card = await waitFor(
      () => inThread(sent.event_id).find((m) => m.body.includes('Uploaded Trailer')),
      20_000,
    );
    const code = /File code: (\S+)/.exec(card.body)?.[1] as string;
    const sandbox = t.app.emulators.media as MediaSandbox;
    const stored = sandbox.controls.file(code);
    expect(stored?.title).toBe('Trailer');
    const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    expect(digest(readFileSync(stored?.path as string))).toBe(digest(content));
    const downloads = t.fake.calls.filter((c) => c.operationId === 'getContentAuthed');
    expect(downloads.length).toBeGreaterThan(0);
  });

  it('attaches a long log as a file uploaded to the media repository', async () => {
    const handle = await t.app.publisher.post(t.adapter.conversationId(room), {
      title: 'Log',
      code: { text: `${'line\n'.repeat(3000)}END-OF-LOG` },
    });
    expect(handle).toBeDefined();
    const file = await waitFor(() => t.people.botMessages(room).find((m) => m.file?.name === 'output.txt'));
    expect(file.file?.data.toString()).toContain('END-OF-LOG');
    expect(file.file?.msgtype).toBe('m.file');
  });
});

describe('Matrix rate limits', () => {
  it('waits out a 429 for its retry_after_ms and posts once', async () => {
    t.fake.rateLimit('sendMessage', 400);
    const started = Date.now();
    await t.app.publisher.post(t.adapter.conversationId(room), { text: 'after the limit' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    const attempts = t.fake
      .callsOf('sendMessage')
      .filter((c) => JSON.stringify(c.body).includes('after the limit'));
    expect(attempts.map((c) => c.status)).toEqual([429, 200]);
    expect(t.people.botMessages(room).filter((m) => m.body.includes('after the limit'))).toHaveLength(1);
  });
});

describe('Matrix sync under rate limits', () => {
  it('a 429 on sync is waited out for its retry_after_ms, and the command typed meanwhile still runs once', async () => {
    t.fake.rateLimit('sync', 300, 2);
    const ask = t.people.say(MX_USERS.admin, room, '!deckhand deploy mytool');
    const done = await waitFor(() => inThread(ask.event_id).find((m) => m.body.startsWith('✅')), 30_000);
    expect(done.body).toContain('Deploy mytool');
    const limited = t.fake.callsOf('sync').filter((c) => c.status === 429);
    expect(limited).toHaveLength(2);
    expect(inThread(ask.event_id).filter((m) => m.body.includes('Deploy mytool'))).toHaveLength(1);
  });
});
