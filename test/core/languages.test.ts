/**
 * Each reader's language: the platform's, else their `/language`, else the conversation's, else
 * English; private answers in the reader's, posts in the conversation's.
 */

import { describe, expect, it } from 'vitest';
import { userKeyOf } from '../../src/core/change-record';
import type { Invocation } from '../../src/core/command';
import {
  invocationLanguages,
  type LanguageStore,
  pickLanguage,
  replyLanguage,
} from '../../src/core/languages';
import { spokenLanguage } from '../../src/i18n/languages';

function memoryStore(users: Record<string, string> = {}, conversations: Record<string, string> = {}) {
  const reads: string[] = [];
  const store: LanguageStore = {
    ofUser: async (key) => {
      reads.push(`user ${key}`);
      return users[key];
    },
    ofConversation: async (id) => {
      reads.push(`conversation ${id}`);
      return conversations[id];
    },
    setUser: async (key, language) => {
      if (language) users[key] = language;
      else delete users[key];
    },
    setConversation: async (id, language) => {
      if (language) conversations[id] = language;
      else delete conversations[id];
    },
  };
  return { store, reads };
}

function invocation(locale?: string, isPrivate = false): Invocation {
  return {
    user: { platform: 'chat', id: 'u1', name: 'Ada', workspace: 'w', ...(locale ? { locale } : {}) },
    conversation: { platform: 'chat', workspace: 'w', channel: 'c' },
    conversationId: 'chat:w:c',
    isPrivate,
  };
}

describe('the reader language', () => {
  it('takes the first source Deckhand speaks: platform, user, conversation, English', () => {
    expect(pickLanguage({ platform: 'de-DE', user: 'he', conversation: 'he' })).toBe('de');
    expect(pickLanguage({ platform: 'fr-FR', user: 'he', conversation: 'de' })).toBe('he');
    expect(pickLanguage({ user: 'xx', conversation: 'de' })).toBe('de');
    expect(pickLanguage({ platform: 'pt-BR' })).toBe('en');
    expect(pickLanguage({})).toBe('en');
  });

  it('maps platform codes onto catalogs', () => {
    expect(spokenLanguage('de_AT')).toBe('de');
    expect(spokenLanguage('iw')).toBe('he');
    expect(spokenLanguage('en-GB')).toBe('en');
    expect(spokenLanguage('<script>')).toBeUndefined();
    expect(spokenLanguage('')).toBeUndefined();
  });

  it('reads the user setting only when the platform says nothing', async () => {
    const owner = userKeyOf(invocation().user);
    const { store, reads } = memoryStore({ [owner]: 'he' }, { 'chat:w:c': 'de' });
    expect(await invocationLanguages(invocation(), store)).toEqual({ reader: 'he', conversation: 'de' });
    expect(reads).toEqual([`user ${owner}`, 'conversation chat:w:c']);
    reads.length = 0;
    expect(await invocationLanguages(invocation('en-US'), store)).toEqual({
      reader: 'en',
      conversation: 'de',
    });
    expect(reads).toEqual(['conversation chat:w:c']);
  });

  it('falls back to the conversation, then English', async () => {
    const { store } = memoryStore({}, { 'chat:w:c': 'he' });
    expect(await invocationLanguages(invocation(), store)).toEqual({ reader: 'he', conversation: 'he' });
    expect(await invocationLanguages(invocation(), memoryStore().store)).toEqual({
      reader: 'en',
      conversation: 'en',
    });
    expect(await invocationLanguages(invocation('de'), undefined)).toEqual({
      reader: 'de',
      conversation: 'en',
    });
  });

  it('answers privately in the reader language and posts in the conversation language', async () => {
    const { store } = memoryStore({}, { 'chat:w:c': 'he' });
    const inChannel = { ...invocation('de'), languages: await invocationLanguages(invocation('de'), store) };
    expect(replyLanguage(inChannel)).toBe('he');
    expect(replyLanguage(inChannel, 'private')).toBe('de');
    const direct = {
      ...invocation('de', true),
      languages: await invocationLanguages(invocation('de', true), store),
    };
    expect(replyLanguage(direct)).toBe('de');
  });
});
