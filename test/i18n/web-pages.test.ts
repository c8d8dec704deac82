/**
 * The web pages a reader opens from a chat line, served in the browser's language: the change page a
 * Server Admin Log line links to, in English, German and Hebrew (snapshots), English for a browser
 * whose languages Deckhand does not speak.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log';
import { mountChangePages } from '../../src/web/change-page';
import { WebServer } from '../../src/web/server';
import { LANGUAGES } from './flow-cards';

const RECORD = {
  tool: 'mytool',
  command: 'tool lock',
  name: 'Ada',
  platform: 'irc',
  at: Date.UTC(2026, 10, 28, 12, 52),
  outcome: 'ok',
  args: { tool: 'mytool', reason: 'maintenance' },
};

let web: WebServer;
let base = '';

beforeAll(async () => {
  web = new WebServer(silentLogger);
  mountChangePages(web, { change: async (id) => (id === 'a'.repeat(22) ? (RECORD as never) : undefined) });
  base = `http://127.0.0.1:${await web.listen(0, '127.0.0.1')}/changes/`;
});

afterAll(async () => {
  await web.close();
});

const page = async (id: string, language: string) =>
  (await fetch(`${base}${id}`, { headers: { 'accept-language': language } })).text();

describe.each(LANGUAGES)('the change page in %s', (language) => {
  it('is written in the language, and so is its not-found page', async () => {
    const html = await page('a'.repeat(22), `${language};q=0.9`);
    expect(html).toContain(`<html lang="${language}"`);
    expect({ found: html, gone: await page('b'.repeat(22), language) }).toMatchSnapshot();
  });
});

it('is English for a browser whose languages Deckhand does not speak', async () => {
  expect(await page('a'.repeat(22), 'fr-CH, fr;q=0.9')).toContain('Command: /tool lock');
});
