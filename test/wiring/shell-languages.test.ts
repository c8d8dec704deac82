/** The terminal chat the application starts reads the `/language` settings: its own words follow the reader. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { LanguageStore } from '../../src/core/languages';
import type { App } from '../../src/wiring/app';
import { createShell } from '../../src/wiring/shell';

const german: LanguageStore = {
  ofUser: async () => 'de',
  ofConversation: async () => undefined,
  setUser: async () => undefined,
  setConversation: async () => undefined,
};

describe('createShell', () => {
  it('gives the terminal the application’s language settings', async () => {
    const printed: string[] = [];
    const output = new Writable({
      write(chunk, _encoding, done) {
        printed.push(String(chunk));
        done();
      },
    });
    const registered: string[] = [];
    const app = {
      runner: {},
      services: { watches: {}, tails: {}, languages: german },
      messengers: { register: (name: string) => registered.push(name) },
    } as unknown as App;
    const shell = createShell(app, { userName: 'ada', output, interactive: false } as never);
    await shell.runLine('press');
    expect(registered).toHaveLength(1);
    expect(printed.join('')).toContain('press erwartet eine Kartennummer');
  });
});
