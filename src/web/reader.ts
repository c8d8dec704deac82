/** The language of a web page's reader. */
import type { IncomingMessage } from 'node:http';
import { spokenLanguage } from '../i18n/languages';
import { type Translator, translator } from '../i18n/translate';

/** The reader of a page: the first language of the browser's `Accept-Language` Deckhand speaks, else English. */
export function readerOf(req: IncomingMessage): Translator {
  const header = req.headers['accept-language'] ?? '';
  const codes = header.split(',').map((part) => part.split(';', 1)[0]?.trim() ?? '');
  return translator(codes.find((code) => spokenLanguage(code)));
}
