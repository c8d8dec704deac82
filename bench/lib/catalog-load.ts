/**
 * One fresh process's measure of what the message catalogs cost (bundled and run by
 * `catalog-cost.ts`, with `--expose-gc`). banana-i18n and the language list are loaded first (the
 * baseline); the load is then importing the catalogs' chunk (the three catalogs and banana-i18n's
 * instances) and saying one message in each language. Numbers and dates through `Intl` are not
 * counted: they were there before the catalogs. After it, every message of every language is said
 * once (what a long-running process reaches at most). Prints one JSON line: `{ loadMs, loadBytes,
 * allMs, allBytes, messages }`, each RSS counted after a full GC.
 */
import { performance } from 'node:perf_hooks';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

await import('banana-i18n');
const { LANGUAGES } = await import('../../src/i18n/languages');
gc();
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const { CATALOGS, isMessageKey, t } = await import('../../src/i18n/translate');
for (const language of LANGUAGES) t(language, 'help-title');
const loadMs = performance.now() - started;
gc();
const loadBytes = process.memoryUsage().rss - rssBefore;

const keys = Object.keys(CATALOGS.en).filter(isMessageKey);
const allStarted = performance.now();
for (const language of LANGUAGES) for (const key of keys) t(language, key, 'mytool', 2, 'ada', 'x', 'y', 'z');
const allMs = performance.now() - allStarted;
gc();
const allBytes = process.memoryUsage().rss - rssBefore;
const messages = keys.length * LANGUAGES.length;
process.stdout.write(`${JSON.stringify({ loadMs, loadBytes, allMs, allBytes, messages })}\n`);
