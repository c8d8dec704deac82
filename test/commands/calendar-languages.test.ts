/**
 * The calendar commands in the conversation's language: an event card, a list and a refusal in
 * German and Hebrew, while what the calendar returns (titles, venue names) stays as it is.
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

describe('the calendar commands in another language', () => {
  it('write their cards, lists and refusals in the conversation’s language', async () => {
    await t.say('/language --here de');
    const [card] = await t.say('/event create "Sprachabend" --start "2026-12-03 18:00" --venue "Main Hall"');
    expect(card?.title).toBe('Sprachabend');
    expect(card?.text).toContain('Termin angelegt.');
    expect(card?.fields?.map((f) => f.label)).toEqual(expect.arrayContaining(['Wann', 'Ort']));
    expect(card?.fields).toEqual(
      expect.arrayContaining([{ label: 'Ort', value: 'Main Hall, Hauptstraße 1, Berlin' }]),
    );
    expect(card?.buttons?.map((b) => b.label)).toEqual(['Bearbeiten', 'Termin absagen']);
    const [venues] = await t.say('/venues list');
    expect(venues?.title).toBe('Veranstaltungsorte');

    // A field's own refusal where its check carries it, the bound's words where the bound failed.
    const [long] = await t.say(`/categories update Talk --description "${'x'.repeat(2001)}"`);
    expect(long?.text).toContain('--description: darf höchstens 2.000 Zeichen lang sein');
    expect(long?.text).not.toContain('Kalender');
    const [empty] = await t.say('/categories update Talk --description ""');
    expect(empty?.text).toContain('darf nicht leer sein (der Kalender behält');
    const [slug] = await t.say('/categories update Talk --slug Bad_Slug');
    expect(slug?.text).toContain('darf nur Kleinbuchstaben, Ziffern und Bindestriche enthalten');

    await t.say('/language --here he');
    const [unknown] = await t.say('/event create "Nowhere" --start "2026-12-03 18:00" --venue Atlantis');
    expect(unknown?.text).toContain('ביומן אין מקום בשם');
    expect(unknown?.text).toContain('Atlantis');
    const [badRef] = await t.say('/event show "no such!"');
    expect(badRef?.text).toContain('צריך להיות מזהה של אירוע');
    const [backwards] = await t.say('/events --from 2026-12-10 --to 2026-12-01');
    expect(backwards?.text).toContain('מוקדם מ־');

    await t.say('/language --here default');
    const [english] = await t.say('/venues list');
    expect(english?.title).toBe('Venues');
  });
});
