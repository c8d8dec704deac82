/**
 * `/language [code] [--here]`: the language Deckhand answers a reader in (where their chat app does
 * not say one), or with `--here` the language of what it posts in this conversation.
 */
import { z } from 'zod';
import { userKeyOf } from '../../src/core/change-record';
import { UsageError } from '../../src/core/errors';
import { LANGUAGE_NAMES, LANGUAGES, type Language, spokenLanguage } from '../../src/i18n/languages';
import { translator } from '../../src/i18n/translate';
import { commandsWith } from '../services';

const command = commandsWith<'languages'>();

/** The word that removes a setting. */
const DEFAULT = 'default';

function named(language: Language): string {
  return LANGUAGE_NAMES[language];
}

/** `/language`, `/language de`, `/language --here he`, `/language default`. */
export const languageCommand = command({
  name: 'language',
  args: z.object({
    code: z.string().max(35).optional().describe('opt-code-language'),
    here: z.boolean().default(false).describe('opt-here'),
  }),
  positional: ['code'],
  examples: ['/language', '/language de', '/language --here he', '/language default'],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    const store = services.languages;
    const languages = invocation.languages ?? { reader: 'en', conversation: 'en' };
    const code = args.code?.trim();
    if (code !== undefined && !store) throw new Error('no language store in this process');
    if (code === undefined || !store) {
      const say = translator(languages.reader);
      const lines = [say.t('language-shown', named(languages.reader), named(languages.conversation))];
      const platform = invocation.user.locale;
      if (platform && spokenLanguage(platform)) lines.push(say.t('language-from-platform', platform));
      lines.push(say.t('language-available', LANGUAGES.map((l) => `${l} (${named(l)})`).join(', ')));
      return {
        title: say.t('language-title'),
        text: lines.join('\n'),
        status: 'info',
        visibility: 'private',
        locale: languages.reader,
        audit: 'unchanged',
      };
    }
    const chosen = code.toLowerCase() === DEFAULT ? undefined : spokenLanguage(code);
    if (code.toLowerCase() !== DEFAULT && !chosen) {
      const choices = [...LANGUAGES, DEFAULT].join(', ');
      throw UsageError.inWords((say) => ({ message: say.t('language-unknown', code, choices) }));
    }
    if (args.here) {
      await store.setConversation(invocation.conversationId, chosen);
      const say = translator(chosen);
      return {
        text: chosen ? say.t('language-set-here', named(chosen)) : say.t('language-reset-here'),
        status: 'success',
        locale: say.language,
      };
    }
    await store.setUser(userKeyOf(invocation.user), chosen);
    const say = translator(chosen ?? languages.conversation);
    return {
      text: chosen ? say.t('language-set-user', named(chosen)) : say.t('language-reset-user'),
      status: 'success',
      visibility: 'private',
      locale: say.language,
    };
  },
});
