/** A Telegram form is asked in the language the person's Telegram app says. */
import { describe, expect, it } from 'vitest';
import { promptCard } from '../../adapters/telegram/form-cards';
import { translator } from '../../src/i18n/translate';

describe('Telegram form words', () => {
  it('asks a step with its buttons and footer in the reader’s language, English by default', () => {
    const conversation = {
      formId: 'f1',
      form: {
        title: 'Event',
        fields: [
          { name: 'title', label: 'Title' },
          { name: 'note', label: 'Note', optional: true },
        ],
        command: 'event create',
        args: {},
      },
      step: 1,
      answers: {},
      secrets: {},
      expiresAt: Date.now() + 600_000,
    };
    const german = promptCard(conversation, translator('de'));
    expect(german.text).toBe(
      'Schritt 2 von 2: Note (optional)\nSchick die Antwort als deine nächste Nachricht.',
    );
    expect(german.buttons?.map((b) => b.label)).toEqual(['Abbrechen', 'Überspringen']);
    expect(german.locale).toBe('de');
    const english = promptCard(conversation);
    expect(english.text).toBe('Step 2 of 2: Note (optional)\nSend it as your next message.');
    expect(english.footer).toBe('/cancel stops it too. The form times out in 10 min.');
    expect(promptCard(conversation, translator('he')).buttons?.map((b) => b.label)).toEqual([
      'ביטול',
      'דילוג',
    ]);
  });
});
