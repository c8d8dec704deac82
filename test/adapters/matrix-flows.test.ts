/**
 * Matrix flows beyond the contract: buttons pressed by reaction and by `!N` answers, edits of one card
 * coalesced (latest state wins), secrets refused in every room, the password login, and `doctor`'s
 * whoami line — all against the fake homeserver, every request valid against the published spec.
 */
import { describe, expect, it } from 'vitest';
import { matrixDoctor } from '../../adapters/matrix/doctor';
import { loadConfig } from '../../src/config';
import type { MessageHandle } from '../../src/core/command';
import { type MatrixDeckhand, MX_USERS, roomWithBot, startMatrixDeckhand } from '../fakes/matrix/harness';
import { startFakeHomeserver } from '../fakes/matrix/server';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';
import { pressCommand, pressesOf } from './contract/press-command';

let t: MatrixDeckhand;
let room: string;

useFakePlatform(
  async () => {
    const started = await startMatrixDeckhand({
      commands: [pressCommand as never],
      password: true,
      before: (fake) => fake.rateLimit('login', 200),
    });
    room = await roomWithBot(started, 'flows');
    return started;
  },
  (started) => {
    t = started;
  },
);

const post = (card: Parameters<MatrixDeckhand['app']['publisher']['post']>[1]) =>
  t.app.publisher.post(t.adapter.conversationId(room), card) as Promise<MessageHandle>;

describe('Matrix buttons', () => {
  it('presses a button by reacting with its number, and by answering the card with !N', async () => {
    const handle = await post({
      text: 'Choose',
      actions: [
        { label: 'Skip', command: 'contract-press', args: { tag: 'mx-skip' } },
        { label: 'Go', command: 'contract-press', args: { tag: 'mx-go' } },
      ],
    });
    const card = handle.ref.message as string;
    expect(t.people.botMessages(room).find((m) => m.eventId === card)?.body).toContain('[1] Skip   [2] Go');
    t.people.react(MX_USERS.stranger, room, card, '2️⃣');
    await waitFor(() => pressesOf('mx-go').includes(MX_USERS.stranger));
    t.people.reply(MX_USERS.admin, room, card, '!1');
    await waitFor(() => pressesOf('mx-skip').includes(MX_USERS.admin));
    const wrong = t.people.reply(MX_USERS.admin, room, card, '!7');
    const answer = await waitFor(() => t.people.botMessages(room).find((m) => m.thread === wrong.event_id));
    expect(answer.body).toBe(
      '⚠️ warning\nThat card has no button [7] (its buttons are [1] Skip, [2] Go); nothing was done.',
    );
    expect(pressesOf('mx-skip')).toEqual([MX_USERS.admin]);
  });

  it('a bare !2 in the room presses the latest card with buttons', async () => {
    await post({
      text: 'Latest',
      actions: [
        { label: 'A', command: 'contract-press', args: { tag: 'mx-a' } },
        { label: 'B', command: 'contract-press', args: { tag: 'mx-b' } },
      ],
    });
    t.people.say(MX_USERS.admin, room, '!2');
    await waitFor(() => pressesOf('mx-b').includes(MX_USERS.admin));
    expect(pressesOf('mx-a')).toEqual([]);
  });
});

describe('Matrix edits', () => {
  it('coalesces edits of one card: the latest state is shown, the ones in between are skipped', async () => {
    const handle = await post({ title: 'Build', text: 'step 0', status: 'progress' });
    await Promise.all(
      [1, 2, 3, 4, 5].map((step) =>
        t.app.publisher.update(handle, {
          title: 'Build',
          text: `step ${step}`,
          status: step === 5 ? 'success' : 'progress',
        }),
      ),
    );
    const shown = t.people.botMessages(room).find((m) => m.eventId === handle.ref.message);
    expect(shown?.body).toContain('step 5');
    expect(shown?.edits).toBeLessThanOrEqual(2);
    const replaces = t.fake
      .callsOf('sendMessage')
      .filter(
        (c) => JSON.stringify(c.body).includes('"m.replace"') && JSON.stringify(c.body).includes('step '),
      );
    expect(replaces.at(-1)?.body).toMatchObject({
      'm.new_content': { body: expect.stringContaining('step 5') },
    });
  });
});

describe('Matrix secrets', () => {
  it('refuses a token typed even in the direct room, and never shows it', async () => {
    const token = 'tok-9f8e7d6c5b4a39281706';
    t.people.say(MX_USERS.admin, room, '!help');
    const dm = await waitFor(() => t.people.directRoom(MX_USERS.admin));
    t.people.say(MX_USERS.admin, dm, `!link tool mytool ${token}`);
    const refusal = await waitFor(() =>
      t.people.botMessages(dm).find((m) => m.body.includes('nothing was stored')),
    );
    expect(refusal.body).toContain('secret page');
    const everything = JSON.stringify(
      [...t.fake.state.rooms.keys()].flatMap((id) => t.people.botMessages(id)),
    );
    expect(everything).not.toContain(token);
  });
});

describe('Matrix doctor', () => {
  it('checks the token with whoami, naming the account; a wrong token or account fails with what to do', async () => {
    const fake = await startFakeHomeserver();
    const env = {
      MATRIX_HOMESERVER_URL: fake.url,
      MATRIX_USER_ID: fake.botUserId,
      MATRIX_ACCESS_TOKEN: fake.botToken,
    };
    try {
      expect(await matrixDoctor.credentials(loadConfig(env))).toMatchObject({
        status: 'ok',
        detail: `${fake.botUserId} on ${fake.url}/.`,
      });
      const wrong = await matrixDoctor.credentials(loadConfig({ ...env, MATRIX_ACCESS_TOKEN: 'nope' }));
      expect(wrong).toMatchObject({ status: 'fail' });
      expect(wrong.detail).toContain('whoami answered 401 M_UNKNOWN_TOKEN');
      const other = await matrixDoctor.credentials(
        loadConfig({ ...env, MATRIX_USER_ID: '@other:fake.test' }),
      );
      expect(other.detail).toContain(`the token belongs to ${fake.botUserId}, not @other:fake.test`);
      expect(fake.violations).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('logged in with the password at start (m.login.password), after waiting out a 429, and uses the token it got', () => {
    const login = t.fake.callsOf('login');
    expect(login.map((c) => c.status)).toEqual([429, 200]);
    expect(login[1]?.body).toMatchObject({
      type: 'm.login.password',
      identifier: { type: 'm.id.user', user: t.fake.botUserId },
    });
    expect(t.fake.callsOf('sync').length).toBeGreaterThan(0);
  });
});

describe('Matrix media limits', () => {
  it('a file the media repository refuses leaves the card posted, with a note naming the file', async () => {
    t.fake.fault('uploadContent', 413, 'M_TOO_LARGE', 'Cannot upload files larger than 10 MB');
    const handle = await post({ text: 'Report', attachments: [{ filename: 'report.txt', content: 'data' }] });
    const card = t.people.botMessages(room).find((m) => m.eventId === handle.ref.message);
    expect(card?.body).toContain('Report');
    const note = await waitFor(() =>
      t.people.botMessages(room).find((m) => m.body.includes('report.txt could not be attached')),
    );
    expect(note.body).toContain('it is larger than the homeserver accepts');
  });
});

describe('Matrix announcements', () => {
  it('an announcement posted again after an interrupted attempt is the same event (same transaction)', async () => {
    const delivery = { key: `deploy-x-${Date.now()}`, announcement: true };
    const first = await post({ text: 'Deployment x is running.', delivery });
    const again = await post({
      text: 'Deployment x is running.',
      delivery: { ...delivery, since: Date.now() },
    });
    expect(again.ref.message).toBe(first.ref.message);
    expect(
      t.people.botMessages(room).filter((m) => m.body.includes('Deployment x is running.')),
    ).toHaveLength(1);
  });
});

describe('Matrix room upgrades', () => {
  it('follows an upgraded room: joins the replacement and moves the room’s subscriptions there', async () => {
    const old = t.people.inviteBot(MX_USERS.admin, 'to-upgrade');
    await waitFor(() => t.people.botJoined(old));
    const subscriptions = t.app.services.subscriptions;
    const base = {
      platform: 'matrix',
      tool: 'mytool',
      kinds: ['deploys'],
      failuresOnly: false,
      changesOnly: false,
      createdBy: 'matrix:test',
    };
    await subscriptions.put({ ...base, conversationId: t.adapter.conversationId(old) } as never);
    const replacement = t.people.upgradeRoom(MX_USERS.admin, old);
    await waitFor(() => t.people.botJoined(replacement));
    const moved = await waitFor(() => subscriptions.get(t.adapter.conversationId(replacement), 'mytool'));
    expect(moved.tool).toBe('mytool');
    expect(await subscriptions.get(t.adapter.conversationId(old), 'mytool')).toBeUndefined();
  });
});
