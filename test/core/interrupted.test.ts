/** The card of a queued command interrupted outside its run, in the conversation's language. */
import { describe, expect, it } from 'vitest';
import { interruptedCard } from '../../src/core/interrupted';
import { translator } from '../../src/i18n/translate';
import { commandRegistry } from '../../src/wiring';

const registry = commandRegistry();
const typed = (text: string) => ({ kind: 'text' as const, text });

describe('the interrupted card', () => {
  it('says in English, by default, whether the command may have partly run', () => {
    expect(interruptedCard(registry, typed('/jobs list mytool')).text).toBe(
      '/jobs list was interrupted before it answered; run it again.',
    );
    expect(interruptedCard(registry, typed('/deploy mytool')).text).toMatch(
      /^\/deploy was interrupted; it may have partly run/,
    );
    expect(interruptedCard(registry, typed('/nope')).text).toBe(
      'Your command was interrupted; it may have partly run. Check before running it again.',
    );
  });

  it("says it in the conversation's language, and marks the card as written in it", () => {
    const card = interruptedCard(registry, typed('/jobs list mytool'), translator('de'));
    expect(card).toEqual({
      text: '/jobs list wurde unterbrochen, bevor eine Antwort kam; führ den Befehl noch einmal aus.',
      status: 'warning',
      locale: 'de',
    });
    expect(interruptedCard(registry, typed('/deploy mytool'), translator('de')).text).toMatch(
      /^\/deploy wurde unterbrochen und ist vielleicht schon teilweise gelaufen/,
    );
  });
});
