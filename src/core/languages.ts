/**
 * Each reader's language: what their chat platform says (the locale the adapter puts on the chat
 * user, where the platform sends one), else their own `/language` setting, else the
 * conversation's (`/language --here`), else English. What is posted where others read it is in the
 * conversation's language; what only the reader sees is in theirs.
 */
import { DEFAULT_LANGUAGE, type Language, spokenLanguage } from '../i18n/languages';
import { type Translator, translator } from '../i18n/translate';
import { userKeyOf } from './change-record';
import type { ChatUser, Invocation } from './command';
import type { DraftCard } from './reply';

/** The languages an invocation is answered in. */
export interface InvocationLanguages {
  /** The person who typed or clicked: for what only they see. */
  reader: Language;
  /** The conversation: for what everyone in it sees. */
  conversation: Language;
}

/** The `/language` settings, stored by the application. */
export interface LanguageStore {
  /** A chat user's own setting (`/language <code>`). */
  ofUser(userKey: string): Promise<string | undefined>;
  /** A conversation's setting (`/language --here <code>`). */
  ofConversation(conversationId: string): Promise<string | undefined>;
  /** Sets (or, with `undefined`, removes) a user's setting. */
  setUser(userKey: string, language: string | undefined): Promise<void>;
  /** Sets (or removes) a conversation's setting. */
  setConversation(conversationId: string, language: string | undefined): Promise<void>;
  /** Both settings in one read, where the store can (one Redis command). */
  ofBoth?(userKey: string, conversationId: string): Promise<[string | undefined, string | undefined]>;
}

/**
 * The reader's language, first that Deckhand speaks of: the platform's locale, the user's setting,
 * the conversation's setting, English.
 */
export function pickLanguage(sources: {
  platform?: string | undefined;
  user?: string | undefined;
  conversation?: string | undefined;
}): Language {
  return (
    spokenLanguage(sources.platform) ??
    spokenLanguage(sources.user) ??
    spokenLanguage(sources.conversation) ??
    DEFAULT_LANGUAGE
  );
}

/** Reads the settings an invocation's languages depend on (the user's only when the platform says nothing). */
export async function invocationLanguages(
  invocation: Invocation,
  store: LanguageStore | undefined,
): Promise<InvocationLanguages> {
  const platform = spokenLanguage(invocation.user.locale);
  const owner = userKeyOf(invocation.user);
  const [user, conversation] =
    !platform && store?.ofBoth
      ? await store.ofBoth(owner, invocation.conversationId).catch(() => [undefined, undefined] as const)
      : await Promise.all([
          platform || !store ? undefined : store.ofUser(owner).catch(() => undefined),
          store?.ofConversation(invocation.conversationId).catch(() => undefined),
        ]);
  const here = spokenLanguage(conversation) ?? DEFAULT_LANGUAGE;
  return { reader: pickLanguage({ platform, user, conversation }), conversation: here };
}

/**
 * The language of what only `user` reads, for a platform adapter's own words: the platform's locale
 * when Deckhand speaks it (nothing is read then), else the user's setting, else the setting of
 * `conversationId`, else English (the order of {@link pickLanguage}).
 */
export async function readerLanguage(
  user: ChatUser,
  conversationId: string,
  store: LanguageStore | undefined,
): Promise<Language> {
  const platform = spokenLanguage(user.locale);
  if (platform || !store) return platform ?? DEFAULT_LANGUAGE;
  const [own, here] = await Promise.all([
    store.ofUser(userKeyOf(user)).catch(() => undefined),
    store.ofConversation(conversationId).catch(() => undefined),
  ]);
  return pickLanguage({ user: own, conversation: here });
}

/** The language of what everyone in `conversationId` reads: its setting, else English. */
export async function conversationLanguage(
  conversationId: string,
  store: LanguageStore | undefined,
): Promise<Language> {
  const here = await store?.ofConversation(conversationId).catch(() => undefined);
  return spokenLanguage(here) ?? DEFAULT_LANGUAGE;
}

/** Language reads started for invocations and not yet awaited (see {@link startLanguages}). */
const pending = new WeakMap<Invocation, Promise<InvocationLanguages>>();

/**
 * Starts reading an invocation's languages without waiting for them, so the reads travel with the
 * command's other first reads (one Redis round trip for all); {@link settleLanguages} waits for them
 * where they are first needed. Returns the invocation to run (a copy).
 */
export function startLanguages(invocation: Invocation, store: LanguageStore | undefined): Invocation {
  const started = { ...invocation };
  if (!started.languages) {
    const read = invocationLanguages(invocation, store);
    read.catch(() => undefined);
    pending.set(started, read);
  }
  return started;
}

/** The languages read for `from` are `to`'s too (a click or a form's invocation made from it). */
export function carryLanguages(from: Invocation, to: Invocation): void {
  const read = pending.get(from);
  if (read && to !== from && !to.languages) pending.set(to, read);
  else if (from.languages && !to.languages) to.languages = from.languages;
}

/** Waits for the languages {@link startLanguages} began to read, and sets them on the invocation. */
export async function settleLanguages(invocation: Invocation): Promise<void> {
  const read = pending.get(invocation);
  if (!read) return;
  invocation.languages = await read.catch(() => ({
    reader: DEFAULT_LANGUAGE,
    conversation: DEFAULT_LANGUAGE,
  }));
  pending.delete(invocation);
}

/** The language of a reply: the reader's where only they read it, else the conversation's. */
export function replyLanguage(invocation: Invocation, visibility?: 'public' | 'private'): Language {
  const languages = invocation.languages;
  if (!languages) return DEFAULT_LANGUAGE;
  return invocation.isPrivate || visibility === 'private' ? languages.reader : languages.conversation;
}

/** The draft stamped with the language it is written in (its reader's when private), unless it says one. */
export function inLanguageOf(invocation: Invocation, draft: DraftCard): DraftCard {
  return draft.locale === undefined
    ? { ...draft, locale: replyLanguage(invocation, draft.visibility) }
    : draft;
}

/** A command's translators: for its replies, and for what only the reader sees. */
export function translators(invocation: Invocation): { say: Translator; sayPrivately: Translator } {
  return {
    say: translator(replyLanguage(invocation)),
    sayPrivately: translator(replyLanguage(invocation, 'private')),
  };
}
