/**
 * What a command may say about the reader's platform, in that platform's own words (taken from its
 * descriptor by the composition root): commands import no adapter.
 */
import { type Translator, translator } from '../i18n/translate';
import type { Platform } from './conversation';

/** The reader's platform's words. */
export interface PlatformWords {
  /**
   * How to attach a file to `command` (its words, `media upload`) there, as a sentence in `say`'s
   * language (English when not given).
   */
  attachHint(command: string, say?: Translator): string;
  /** Its name as people read it, when it shows times in each reader's own zone (not the conversation's). */
  readerZonesOn?: string;
  /** It refuses secrets typed in its text, even in a private conversation (the secret page only). */
  noSecretsInText?: boolean;
}

/** The words of each platform. */
export type PlatformWordsOf = (platform: Platform) => PlatformWords;

/** Words for a platform without its own: the command with `--file PATH`. */
export const PLAIN_WORDS: PlatformWords = {
  attachHint: (command, say = translator('en')) => say.t('upload-run-attach-file', command),
};
