/**
 * `/language` through the command runner: a user's setting answers them privately in their language
 * while the channel keeps its own; `--here` sets the channel's; an unknown code is refused with the
 * codes Deckhand speaks and changes nothing; `default` removes a setting.
 */
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

let t: TestApp;
useStarted(
  () => startTestApp(),
  (started) => {
    t = started;
  },
);

describe('/language', () => {
  it("answers privately in the user's language and posts in the channel's", async () => {
    const [set] = await t.say('/language de');
    expect(set?.text).toBe(
      'Ab jetzt antworte ich dir auf Deutsch (sofern deine Chat-App keine andere Sprache meldet).',
    );
    expect(set?.visibility).toBe('private');
    // Help is shown only to the reader: German. The channel has no language: its posts stay English.
    const [help] = await t.say('/help');
    expect(help?.title).toBe('Deckhand-Befehle');
    const [question] = await t.say('/build delete mytool latest');
    expect(question?.title).toBe('Please confirm');
    expect(question?.locale).toBe('en');

    const [here] = await t.say('/language --here he');
    expect(here?.text).toContain('מעכשיו אכתוב בשיחה הזאת ב');
    const [asked] = await t.say('/build delete mytool latest');
    expect(asked?.title).toBe('נא לאשר');
    expect(asked?.buttons?.map((b) => b.label)).toEqual(['אישור', 'ביטול']);
    // Someone without a setting of their own reads the channel's language, privately too.
    const [other] = await t.say('/help', { user: 'UMAINT' });
    expect(other?.title).toBe('הפקודות של Deckhand');

    const [refused] = await t.say('/language klingon');
    expect(refused?.text).toContain('Deckhand spricht kein „klingon“. Zur Wahl stehen: en, de, he, default.');
    const [still] = await t.say('/help');
    expect(still?.title).toBe('Deckhand-Befehle');

    await t.say('/language default');
    await t.say('/language --here default');
    const [back] = await t.say('/help');
    expect(back?.title).toBe('Deckhand commands');
  });
});
