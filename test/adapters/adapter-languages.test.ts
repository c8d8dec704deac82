/**
 * The adapters' own words follow the `/language` settings where the platform says no language (IRC,
 * Matrix) or one Deckhand does not speak (Discord, Telegram): what one person reads is in theirs,
 * what a channel reads is in the channel's.
 */
import { EventEmitter } from 'node:events';
import { InteractionType } from 'discord.js';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { InteractionHandler } from '../../adapters/discord/interactions';
import { IrcForms } from '../../adapters/irc/forms';
import { installReceiver } from '../../adapters/irc/receiver';
import { type IrcPlace, ircSurface } from '../../adapters/irc/surface';
import { CardButtons } from '../../adapters/matrix/buttons';
import { onRoomEvent } from '../../adapters/matrix/events';
import { MatrixForms } from '../../adapters/matrix/forms';
import { matrixSurface } from '../../adapters/matrix/surface';
import { TelegramForms } from '../../adapters/telegram/forms';
import type { FormSpec } from '../../src/core/forms';
import type { LanguageStore } from '../../src/core/languages';
import type { Card } from '../../src/core/reply';
import { sampleRegistry } from '../core/fixtures';
import { memoryStore } from '../support/memory-store';

const logger = pino({ level: 'silent' });

/** Settings: the user's, by user key; the conversations', by conversation id (or one for all). */
function settings(users: Record<string, string>, conversations: Record<string, string> | string = {}) {
  const store: LanguageStore = {
    ofUser: async (key) => users[key],
    ofConversation: async (id) => (typeof conversations === 'string' ? conversations : conversations[id]),
    setUser: async () => undefined,
    setConversation: async () => undefined,
  };
  return store;
}

const form: FormSpec = {
  title: 'New event',
  fields: [{ name: 'title', label: 'Event title' }],
  command: 'calendar event',
  args: {},
};

describe('IRC in the reader’s language', () => {
  const ada: IrcPlace = { network: 'irc.local', target: '#ops', nick: 'ada', account: 'ada' };

  function forms(languages?: LanguageStore) {
    const posted: Card[] = [];
    const ircForms = new IrcForms({
      store: memoryStore(),
      post: async (_nick, card) => void posted.push(card),
      timeoutMs: 60_000,
      submit: async () => undefined,
      languages,
    });
    return { ircForms, posted };
  }

  it('asks a form in the person’s /language, and cancels it in the same language', async () => {
    const { ircForms, posted } = forms(settings({ 'irc:irc.local:ada': 'de' }));
    await ircForms.open('f1', form, ada);
    expect(posted[0]?.text).toMatch(/^Event title — 1 von 1\./);
    expect(posted[0]?.locale).toBe('de');
    await ircForms.answer({ ...ada, target: 'ada' }, '');
    expect(posted[1]?.locale).toBe('de');
    await ircForms.cancel({ ...ada, target: 'ada' });
    expect(posted.at(-1)?.text).toBe('Das Formular wurde abgebrochen; es wurde nichts getan.');
    const english = forms();
    await english.ircForms.open('f2', form, ada);
    expect(english.posted[0]?.text).toMatch(/^Event title — 1 of 1\./);
  });

  it('tells the channel where the questions went in the channel’s language', async () => {
    const posted: { to: string; card: Card }[] = [];
    const messenger = { post: async (to: string, card: Card) => void posted.push({ to, card }) };
    const { ircForms } = forms(settings({}, { 'irc:irc.local:#ops': 'he' }));
    const surface = ircSurface(
      messenger as never,
      ada,
      ircForms,
      settings({}, { 'irc:irc.local:#ops': 'he' }),
    );
    await surface.openForm?.('f3', form);
    const note = posted.find((p) => p.to === 'irc:irc.local:#ops');
    expect(note?.card.text).toContain('שאלתי אתכם את השאלות של');
  });

  function receiver(languages: LanguageStore) {
    const client = Object.assign(new EventEmitter(), { user: { nick: 'deckhand' } });
    const replies: Card[] = [];
    const installed = installReceiver({
      link: { client } as never,
      network: 'irc.local',
      prefix: '!',
      isFeed: () => false,
      registry: sampleRegistry().registry as never,
      actions: { load: async () => undefined } as never,
      handoff: { submit: async () => undefined } as never,
      deduper: { claim: async () => true },
      accounts: { accountOf: () => undefined } as never,
      buttons: { press: new CardlessButtons().press } as never,
      messenger: {} as never,
      forms: { cancel: async () => false, answer: async () => false } as never,
      surfaceOf: () => ({
        reply: async (card: Card) => void replies.push(card),
        update: async () => undefined,
      }),
      languages,
      logger,
    });
    return { client, replies, installed };
  }

  it('refuses a line and a button number in the channel’s language, in a query in the person’s', async () => {
    const { client, replies, installed } = receiver(
      settings({ 'irc:irc.local:~bob': 'de' }, { 'irc:irc.local:#ops': 'he' }),
    );
    client.emit('privmsg', { nick: 'bob', target: '#ops', message: '!deploy mytool' });
    client.emit('privmsg', { nick: 'bob', target: '#ops', message: '!7' });
    client.emit('privmsg', { nick: 'bob', target: 'deckhand', message: '7' });
    await installed.settled();
    const texts = replies.map((r) => r.text);
    expect(texts).toContainEqual(expect.stringContaining('משנה משהו'));
    expect(texts).toContain('אין כאן כפתור [7]; לא נעשה דבר.');
    expect(texts).toContain('Hier gibt es keine Schaltfläche [7]; es wurde nichts getan.');
  });
});

/** IRC button numbers that were never given. */
class CardlessButtons {
  press = async (
    _conversation: string,
    number: number,
    say?: { t(key: string, ...p: unknown[]): string },
  ) => ({
    ok: false as const,
    message: say
      ? say.t('irc-press-no-button', number)
      : `There is no button [${number}] here; nothing was done.`,
  });
}

describe('Matrix in the reader’s language', () => {
  function rig(languages: LanguageStore) {
    const posted: { roomId: string; card: Card }[] = [];
    const rooms = { directRoom: async () => '!dm:hs', isDirect: async (id: string) => id === '!dm:hs' };
    const forms = new MatrixForms({
      store: memoryStore(),
      rooms: rooms as never,
      post: async (roomId, card) => void posted.push({ roomId, card }),
      timeoutMs: 60_000,
      logger,
      submit: async () => undefined,
    });
    const messenger = {
      send: async (_id: string, roomId: string, card: Card) => {
        posted.push({ roomId, card });
        return { platform: 'matrix', conversationId: _id, ref: {} };
      },
    };
    const deps = { messenger: messenger as never, rooms: rooms as never, forms, languages };
    return { deps, forms, posted };
  }
  const bot = '@deckhand:hs';

  it('asks a form in the person’s /language', async () => {
    const { deps, posted } = rig(settings({ 'matrix:@deckhand:hs:@ada:hs': 'de' }));
    const surface = matrixSurface(deps, {
      botUserId: bot,
      roomId: '!ops:hs',
      userId: '@ada:hs',
      direct: false,
    });
    await surface.openForm?.('f1', form);
    expect(posted[0]?.card.text).toContain('Event title — 1 von 1');
    expect(posted[0]?.card.locale).toBe('de');
  });

  it('answers a press in the room’s language, a hint in the direct room in the person’s', async () => {
    const { deps, posted } = rig(settings({ 'matrix:@deckhand:hs:@ada:hs': 'de' }, 'he'));
    const events = {
      ...deps,
      client: {} as never,
      botUserId: bot,
      handoff: {} as never,
      deduper: { claim: async () => true },
      clicks: {} as never,
      buttons: new CardButtons(memoryStore()),
      allowedServers: [],
      line: { prefix: '!', names: ['deckhand'], groups: new Set(['deploy']) },
      logger,
    };
    const message = (id: string, body: string) => ({
      event_id: id,
      type: 'm.room.message',
      sender: '@ada:hs',
      content: { msgtype: 'm.text', body },
    });
    await onRoomEvent(events as never, '!ops:hs', message('$1', '!3'));
    await onRoomEvent(events as never, '!dm:hs', message('$2', 'hello'));
    const texts = posted.map((p) => p.card.text);
    expect(texts).toContain('אין כאן כרטיס עם כפתורים ללחיצה; לא נעשה דבר.');
    expect(texts).toContain('Tippe !help, um zu sehen, was ich kann.');
  });
});

describe('Discord and Telegram fall back to the /language setting', () => {
  it('Discord: a client language Deckhand does not speak gives way to the user’s setting', async () => {
    const answers: unknown[] = [];
    const handler = new InteractionHandler({
      runner: {} as never,
      handoff: { queued: false, submit: async () => undefined } as never,
      routes: new Map(),
      suggestions: {} as never,
      deduper: { claim: async () => true },
      clicks: {} as never,
      api: {} as never,
      messenger: {} as never,
      forms: {} as never,
      ackAfterMs: 60_000,
      languages: settings({ 'discord:g1:u1': 'de' }),
      logger,
    });
    await handler.handle(
      {
        id: 'i1',
        type: InteractionType.ModalSubmit,
        token: 'tok',
        guild_id: 'g1',
        channel_id: 'c1',
        locale: 'fr',
        member: { user: { id: 'u1', username: 'ada' } },
        data: { custom_id: 'other', components: [] },
      } as never,
      async (response) => void answers.push(response),
    );
    expect(JSON.stringify(answers)).toContain('Dieses Formular gehört nicht zu Deckhand.');
  });

  it('Telegram: a form control of a closed form says so in the user’s setting when the app’s is French', async () => {
    const updated: Card[] = [];
    const forms = new TelegramForms({
      store: { get: async () => undefined } as never,
      messenger: { update: async (_handle: unknown, card: Card) => void updated.push(card) } as never,
      api: {} as never,
      botId: '42',
      botUsername: () => 'deckhand_bot',
      timeoutMs: 60_000,
      logger,
      submit: async () => undefined,
      languages: settings({ 'telegram:42:7': 'he' }),
    });
    await forms.control({ id: 7, is_bot: false, first_name: 'Ada', language_code: 'fr' }, '~c:f1', 3);
    expect(updated[0]?.text).toBe('הטופס הזה כבר לא פתוח.');
    await forms.control({ id: 7, is_bot: false, first_name: 'Ada', language_code: 'de' }, '~c:f1', 3);
    expect(updated[1]?.text).toBe('Dieses Formular ist nicht mehr offen.');
  });
});
