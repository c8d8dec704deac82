/**
 * The terminal's own words (its line refusals, button numbers, form questions) are in the reader's
 * language: their `/language` setting, else the terminal conversation's, else English.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CardButtonNumbers } from '../../adapters/shell/button-numbers';
import { askForm } from '../../adapters/shell/forms';
import { ShellAdapter } from '../../adapters/shell/shell-adapter';
import type { LanguageStore } from '../../src/core/languages';
import { translator } from '../../src/i18n/translate';

function settings(user?: string, conversation?: string): LanguageStore {
  return {
    ofUser: async () => user,
    ofConversation: async () => conversation,
    setUser: async () => undefined,
    setConversation: async () => undefined,
  };
}

function terminal(languages?: LanguageStore) {
  const printed: string[] = [];
  const output = new Writable({
    write(chunk, _encoding, done) {
      printed.push(String(chunk));
      done();
    },
  });
  const shell = new ShellAdapter({ userName: 'ada', output, interactive: false, languages } as never);
  return { shell, printed };
}

describe('the terminal in the reader’s language', () => {
  it('refuses a line in the user’s /language, in English without one', async () => {
    const german = terminal(settings('de'));
    await german.shell.runLine('press');
    expect(german.printed.join('')).toContain('press erwartet eine Kartennummer');
    const hebrew = terminal(settings(undefined, 'he'));
    await hebrew.shell.runLine('7');
    expect(hebrew.printed.join('')).toContain('אין כפתור [7].');
    const english = terminal();
    await english.shell.runLine('7');
    expect(english.printed.join('')).toBe('There is no button [7].\n');
  });

  it('says what a button number and a form question mean in German', async () => {
    const numbers = new CardButtonNumbers();
    numbers.number('3', [{ label: 'Cancel', actionId: 'x' }]);
    expect(numbers.pressLabel('3', 'Logs', translator('de'))).toEqual({
      ok: false,
      message: 'Karte 3 hat keine Schaltfläche „Logs“ (ihre Schaltflächen: Cancel); es wurde nichts getan.',
    });
    const said: string[] = [];
    const questions: string[] = [];
    const form = {
      title: 'Token',
      fields: [{ name: 'value', label: 'Wert', secret: true }],
      command: 'x',
      args: {},
    };
    const answers = await askForm(
      form,
      async (question) => {
        questions.push(question);
        return '/cancel';
      },
      (text) => said.push(text),
      translator('de'),
    );
    expect(answers).toBeUndefined();
    expect(questions).toEqual(['Wert [verborgen]: ']);
    expect(said.at(-1)).toBe('Das Formular wurde abgebrochen; es wurde nichts getan.');
  });
});
