/**
 * The descriptions of command groups in the platforms' command menus, in each language: the words
 * `/help` says about the group (`help-group-<group>` in the catalog), starting with a capital.
 */
import { LANGUAGES, type Language } from './languages';
import { isMessageKey, type MessageKey, t } from './translate';

/** The languages other than English: the menus registered in addition to the English one. */
export const MENU_LANGUAGES: readonly Language[] = LANGUAGES.filter((language) => language !== 'en');

/** The catalog key of what a command group does, when the catalog has one. */
export function groupDescriptionKey(group: string): MessageKey | undefined {
  const key = `help-group-${group}`;
  return isMessageKey(key) ? key : undefined;
}

/** What a command group does in `language`, capitalised, at most `max` characters; undefined without a key. */
export function groupDescription(group: string, language: Language, max: number): string | undefined {
  const key = groupDescriptionKey(group);
  if (!key) return undefined;
  const text = t(language, key).trim();
  const capital = `${text.charAt(0).toLocaleUpperCase(language)}${text.slice(1)}`;
  return capital.length <= max ? capital : `${capital.slice(0, max - 1)}…`;
}
