/**
 * One fresh process's measure of what the message catalogs cost (bundled and run by
 * `catalog-cost.ts`, with `--expose-gc`). The translation module holds no messages: it reads each
 * language's catalog from `i18n/` on that language's first message, and decodes a message on its
 * first use. So the baseline is the module loaded (with banana-i18n and the language list), and the
 * load is saying one message in each language: reading the three catalogs and making banana-i18n's
 * instances. English alone (what a process pays before its first word) is reported too. Numbers and
 * dates through `Intl` are not counted: they were there before the catalogs. After it, every message
 * of every language is said once (what a long-running process reaches at most). Prints one JSON
 * line: `{ loadMs, englishMs, loadBytes, allMs, allBytes, messages }`, each RSS counted after a full
 * GC.
 */
import { performance } from 'node:perf_hooks';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const { LANGUAGES } = await import('../../src/i18n/languages');
const { isMessageKey, t } = await import('../../src/i18n/translate');
const { catalogOf } = await import('../../src/i18n/catalog-text');
gc();
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
let englishMs = 0;
for (const language of LANGUAGES) {
  t(language, 'help-title');
  if (language === 'en') englishMs = performance.now() - started;
}
const loadMs = performance.now() - started;
gc();
const loadBytes = process.memoryUsage().rss - rssBefore;

const keys = catalogOf('en').keys().filter(isMessageKey);
const allStarted = performance.now();
for (const language of LANGUAGES) for (const key of keys) t(language, key, 'mytool', 2, 'ada', 'x', 'y', 'z');
const allMs = performance.now() - allStarted;
gc();
const allBytes = process.memoryUsage().rss - rssBefore;
const messages = keys.length * LANGUAGES.length;
process.stdout.write(`${JSON.stringify({ loadMs, englishMs, loadBytes, allMs, allBytes, messages })}\n`);
